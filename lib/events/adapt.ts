/**
 * Which queues accept an event and the form each one receives (real-server notes on http-register-events 4.4,
 * the real server's `accepts_event` and `process_*_event` functions). Emitters send one
 * canonical payload with raw topic names; everything client-specific happens here.
 */
import { FEATURES } from '../features/feature-levels.js';
import type { World } from '../state/world.js';
import { displayTopic } from '../input/topic-names.js';
import type { ChatEvent } from '../state/event-hub.js';
import { flagsOf, messageEventForQueue, type MessagePayload } from './message-payload.js';
import { matchesNarrow } from './narrow.js';
import { presenceForQueue } from './presence-format.js';
import type { QueueOptions } from './queue-options.js';

const LEGACY_SETTINGS_EVENTS = new Set(['update_display_settings', 'update_global_notifications']);
const PRONOUNS = 8;
const SHORT_TEXT = 1;

/** The type-independent filters of `accepts_event`. */
function accepts(world: World, options: QueueOptions, event: ChatEvent): boolean {
  const { eventTypes, capabilities } = options;
  if (eventTypes !== null) {
    if (!eventTypes.includes(event.type)) return false;
    // Clients listing both get user_topic only (muted_topics is its legacy twin).
    if (event.type === 'muted_topics' && eventTypes.includes('user_topic')) return false;
  }
  if (event.type === 'typing' && 'stream_id' in event) return capabilities.streamTypingNotifications;
  if (LEGACY_SETTINGS_EVENTS.has(event.type)) return !capabilities.userSettingsObject;
  // Before FL 176 the capability did not exist and every client got these events.
  if (event.type === 'realm_linkifiers') return capabilities.linkifierUrlTemplate || !world.has(FEATURES.LINKIFIER_URL_TEMPLATE);
  if (event.type === 'user_group') {
    if (event.op === 'remove') return !capabilities.includeDeactivatedGroups;
    // A reactivated group comes back as an add for the clients that had dropped it.
    if (event.op === 'add' && event.for_reactivation === true) return !capabilities.includeDeactivatedGroups;
    const data = event.data;
    if (event.op === 'update' && typeof data === 'object' && data !== null && 'deactivated' in data) {
      return capabilities.includeDeactivatedGroups;
    }
  }
  return true;
}

function withTopic(event: ChatEvent, key: string, emptyTopicName: boolean): ChatEvent {
  const topic = event[key];
  if (typeof topic !== 'string' || topic !== '' || emptyTopicName) return event;
  return { ...event, [key]: displayTopic(topic, emptyTopicName) };
}

function deletionEvents(event: ChatEvent, options: QueueOptions): ChatEvent[] {
  const rewritten = withTopic(event, 'topic', options.capabilities.emptyTopicName);
  const ids = rewritten.message_ids;
  if (options.capabilities.bulkMessageDeletion || !Array.isArray(ids)) return [rewritten];
  // Clients without bulk deletion get one event per message, with a singular message_id.
  const { message_ids: _ids, ...rest } = rewritten;
  return ids.map((id) => ({ ...rest, message_id: id }) as ChatEvent);
}

function unreadFlagEvent(event: ChatEvent, emptyTopicName: boolean): ChatEvent {
  const details = event.message_details;
  if (emptyTopicName || typeof details !== 'object' || details === null) return event;
  const entries = Object.entries(details as Record<string, unknown>).map(([id, detail]) => {
    const d = detail as Record<string, unknown>;
    return [id, d.type === 'stream' && d.topic === '' ? { ...d, topic: displayTopic('', false) } : d] as const;
  });
  return { ...event, message_details: Object.fromEntries(entries) };
}

function profileFieldsEvent(event: ChatEvent, pronounsSupported: boolean): ChatEvent {
  if (pronounsSupported || !Array.isArray(event.fields)) return event;
  const fields = event.fields.map((field: Record<string, unknown>) => (field.type === PRONOUNS ? { ...field, type: SHORT_TEXT } : field));
  return { type: 'custom_profile_fields', fields };
}

/**
 * The events one queue receives for `event`: none (filtered out), one (possibly rewritten),
 * or several (per-message deletions for clients without `bulk_message_deletion`).
 */
export function eventsForQueue(world: World, options: QueueOptions, event: ChatEvent): ChatEvent[] {
  if (!accepts(world, options, event)) return [];
  const { capabilities } = options;
  switch (event.type) {
    case 'message': {
      const adapted = messageEventForQueue(world, event, options);
      const message = (adapted.message ?? {}) as MessagePayload;
      return matchesNarrow(options.narrow, message, flagsOf(adapted)) ? [adapted] : [];
    }
    case 'update_message':
      return [withTopic(withTopic(event, 'orig_subject', capabilities.emptyTopicName), 'subject', capabilities.emptyTopicName)];
    case 'delete_message':
      return deletionEvents(event, options);
    case 'typing':
      return [withTopic(event, 'topic', capabilities.emptyTopicName)];
    case 'user_topic':
      return [withTopic(event, 'topic_name', capabilities.emptyTopicName)];
    case 'update_message_flags':
      return [event.op === 'remove' && event.flag === 'read' ? unreadFlagEvent(event, capabilities.emptyTopicName) : event];
    case 'presence': {
      const shaped = presenceForQueue(world, event, { simplified: capabilities.simplifiedPresenceEvents, slim: options.slimPresence });
      return shaped ? [shaped] : [];
    }
    case 'custom_profile_fields':
      return [profileFieldsEvent(event, capabilities.pronounsFieldTypeSupported)];
    case 'realm_user': {
      if (event.op !== 'add' || !('inaccessible_user' in event)) return [event];
      const { inaccessible_user: inaccessible, ...rest } = event;
      return inaccessible === true && capabilities.userListIncomplete ? [] : [rest as ChatEvent];
    }
    case 'user_group': {
      if (event.op === 'add' && 'for_reactivation' in event) {
        const { for_reactivation: _reactivation, ...added } = event;
        return [added as ChatEvent];
      }
      if (event.op !== 'update' || !('deactivated' in event)) return [event];
      const { deactivated, ...rest } = event;
      return deactivated === true && !capabilities.includeDeactivatedGroups ? [] : [rest as ChatEvent];
    }
    default:
      return [event];
  }
}
