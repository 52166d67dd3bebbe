/**
 * The client capabilities a client declares when it registers an event queue (`POST /register`
 * `client_capabilities`, real-server notes on http-register-events 3.2). They shape both the
 * initial state and the events the queue receives. Every capability defaults to false except
 * `pronouns_field_type_supported`, as on the real server.
 */

export interface ClientCapabilities {
  readonly notificationSettingsNull: boolean;
  readonly bulkMessageDeletion: boolean;
  readonly userAvatarUrlFieldOptional: boolean;
  readonly streamTypingNotifications: boolean;
  readonly userSettingsObject: boolean;
  readonly pronounsFieldTypeSupported: boolean;
  readonly linkifierUrlTemplate: boolean;
  readonly userListIncomplete: boolean;
  readonly includeDeactivatedGroups: boolean;
  readonly archivedChannels: boolean;
  readonly emptyTopicName: boolean;
  /** FL 419 on the real server; honoured at every emulated level. */
  readonly simplifiedPresenceEvents: boolean;
}

/** Capability names as clients send them, mapped to the fields above. */
export const CAPABILITY_NAMES: ReadonlyArray<readonly [string, keyof ClientCapabilities]> = [
  ['notification_settings_null', 'notificationSettingsNull'],
  ['bulk_message_deletion', 'bulkMessageDeletion'],
  ['user_avatar_url_field_optional', 'userAvatarUrlFieldOptional'],
  ['stream_typing_notifications', 'streamTypingNotifications'],
  ['user_settings_object', 'userSettingsObject'],
  ['pronouns_field_type_supported', 'pronounsFieldTypeSupported'],
  ['linkifier_url_template', 'linkifierUrlTemplate'],
  ['user_list_incomplete', 'userListIncomplete'],
  ['include_deactivated_groups', 'includeDeactivatedGroups'],
  ['archived_channels', 'archivedChannels'],
  ['empty_topic_name', 'emptyTopicName'],
  ['simplified_presence_events', 'simplifiedPresenceEvents'],
];

export const DEFAULT_CAPABILITIES: ClientCapabilities = {
  notificationSettingsNull: false,
  bulkMessageDeletion: false,
  userAvatarUrlFieldOptional: false,
  streamTypingNotifications: false,
  userSettingsObject: false,
  pronounsFieldTypeSupported: true,
  linkifierUrlTemplate: false,
  userListIncomplete: false,
  includeDeactivatedGroups: false,
  archivedChannels: false,
  emptyTopicName: false,
  simplifiedPresenceEvents: false,
};

/** Builds capabilities from `name -> bool` pairs; unknown names are ignored. */
export function capabilitiesFrom(values: ReadonlyMap<string, boolean>): ClientCapabilities {
  const out: Record<keyof ClientCapabilities, boolean> = { ...DEFAULT_CAPABILITIES };
  for (const [wire, field] of CAPABILITY_NAMES) {
    const value = values.get(wire);
    if (value !== undefined) out[field] = value;
  }
  return out;
}
