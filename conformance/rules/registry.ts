/**
 * Every rule of the suite, in one list. A new rule file exports `rules: Rule[]` and is added to
 * `RULE_FILES` below; ids must be unique and in the `<resource>/<behaviour>` form.
 */
import { isDeviationId } from '../deviations.js';
import { rules as auth } from './conventions/auth.js';
import { rules as authEndpointTable } from './conventions/auth-endpoint-table.js';
import { rules as authRateLimit } from './conventions/auth-rate-limit.js';
import { rules as fetchApiKeyLogin } from './conventions/fetch-api-key-login.js';
import { rules as serverSettingsMeaning } from './conventions/server-settings-meaning.js';
import { rules as usersMeaning } from './users/users-meaning.js';
import { rules as usersDefaults } from './users/users-defaults.js';
import { rules as deactivateUserRoles } from './users/deactivate-user-roles.js';
import { rules as conventions } from './conventions/conventions.js';
import { rules as serverSettings } from './conventions/server-settings.js';
import { rules as subscriptions } from './channels/subscriptions.js';
import { rules as streams } from './channels/streams.js';
import { rules as typing } from './messages/typing.js';
import { rules as userTopics } from './personal/user-topics.js';
import { rules as userTopicsTransitions } from './personal/user-topics-transitions.js';
import { rules as markTopicAsRead } from './messages/mark-topic-as-read.js';
import { rules as markTopicAsReadScope } from './messages/mark-topic-as-read-scope.js';
import { rules as reactions } from './messages/reactions.js';
import { rules as reactionsEvents } from './messages/reactions-events.js';
import { rules as messageFlags } from './messages/message-flags.js';
import { rules as messageFlagsEvents } from './messages/message-flags-events.js';
import { rules as messageFlagsNarrow } from './messages/message-flags-narrow.js';
import { rules as messageFlagsMark } from './messages/message-flags-mark.js';
import { rules as messageFlagsMarkScope } from './messages/message-flags-mark-scope.js';
import { rules as unread } from './messages/unread.js';
import { rules as readReceipts } from './messages/read-receipts.js';
import { rules as deactivateUser } from './users/deactivate-user.js';
import type { Rule } from './types.js';
import { rules as userGroups } from './groups/user-groups.js';
import { rules as userGroupSettings } from './groups/user-group-settings.js';
import { rules as userGroupSubgroups } from './groups/user-group-subgroups.js';
import { rules as userGroupNames } from './groups/user-group-names.js';
import { rules as userGroupRoles } from './groups/user-group-roles.js';
import { rules as navigationViews } from './personal/navigation-views.js';
import { rules as navigationViewsChecks } from './personal/navigation-views-checks.js';
import { rules as drafts } from './personal/drafts.js';
import { rules as draftsErrors } from './personal/drafts-errors.js';
import { rules as userStatus } from './users/user-status.js';
import { rules as userStatusErrors } from './users/user-status-errors.js';
import { rules as presence } from './users/presence.js';
import { rules as presenceReads } from './users/presence-reads.js';
import { rules as userSettingsDefaults } from './realm/user-settings-defaults.js';
import { rules as userSettingsDefaultsEffects } from './realm/user-settings-defaults-effects.js';
import { rules as userSettingsDefaultsValues } from './realm/user-settings-defaults-values.js';
import { rules as users } from './users/users.js';
import { rules as messageHistory } from './messages/message-history.js';
import { rules as messageHistoryMeaning } from './messages/message-history-meaning.js';
import { rules as messageEdit } from './messages/message-edit.js';
import { rules as messageEditErrors } from './messages/message-edit-errors.js';
import { rules as messageEditLimits } from './messages/message-edit-limits.js';
import { rules as messageEditEvents } from './messages/message-edit-events.js';
import { rules as messageEditTyping } from './messages/message-edit-typing.js';
import { rules as messageMove } from './messages/message-move.js';
import { rules as messageMoveNotifications } from './messages/message-move-notifications.js';
import { rules as messageMoveRoles } from './messages/message-move-roles.js';
import { rules as messageMoveNarrowed } from './messages/message-move-narrowed.js';
import { rules as messageMoveEvents } from './messages/message-move-events.js';
import { rules as messageDelete } from './messages/message-delete.js';
import { rules as messageDeleteEvents } from './messages/message-delete-events.js';
import { rules as push } from './personal/push.js';
import { rules as reportMessage } from './messages/report-message.js';
import { rules as linkifiers } from './realm/linkifiers.js';
import { rules as reminders } from './personal/reminders.js';
import { rules as scheduledMessages } from './messages/scheduled-messages.js';
import { rules as attachments } from './personal/attachments.js';
import { rules as linkifiersChanges } from './realm/linkifiers-changes.js';
import { rules as attachmentsSharp } from './personal/attachments-sharp.js';
import { rules as draftsSharp } from './personal/drafts-sharp.js';
import { rules as linkifiersEvents } from './realm/linkifiers-events.js';
import { rules as presenceSharp } from './users/presence-sharp.js';
import { rules as remindersSharp } from './personal/reminders-sharp.js';
import { rules as reportMessageSharp } from './messages/report-message-sharp.js';
import { rules as typingSharp } from './messages/typing-sharp.js';
import { rules as userStatusSharp } from './users/user-status-sharp.js';
import { rules as messageFetchModel } from './messages/message-fetch-model.js';
import { rules as sendMessage } from './messages/send-message.js';
import { rules as sendMessageLimits } from './messages/send-message-limits.js';
import { rules as sendMessageAccess } from './messages/send-message-access.js';
import { rules as sendMessageEvents } from './messages/send-message-events.js';
import { rules as messageFetchAnchors } from './messages/message-fetch-anchors.js';
import { rules as messageFetchNarrows } from './messages/message-fetch-narrows.js';
import { rules as messageFetchAccess } from './messages/message-fetch-access.js';
import { rules as messageGet } from './messages/message-get.js';
import { rules as messageRender } from './messages/message-render.js';
import { rules as topicLinks } from './messages/topic-links.js';
import { rules as bots } from './users/bots.js';
import { rules as botsRoles } from './users/bots-roles.js';
import { rules as botsUpdate } from './users/bots-update.js';
import { rules as botsKeys } from './users/bots-keys.js';
import { rules as botsEvents } from './users/bots-events.js';
import { rules as createUser } from './users/create-user.js';
import { rules as updateUser } from './users/update-user.js';
import { rules as userEmail } from './users/user-email.js';
import { rules as reactivateUser } from './users/reactivate-user.js';
import { rules as deactivateOwnUser } from './users/deactivate-own-user.js';
import { rules as pointer } from './users/pointer.js';
import { rules as alertWords } from './personal/alert-words.js';
import { rules as mutedUsers } from './personal/muted-users.js';
import { rules as onboardingSteps } from './personal/onboarding-steps.js';
import { rules as hotspots } from './personal/hotspots.js';
import { rules as savedSnippets } from './personal/saved-snippets.js';
import { rules as legacyPush } from './personal/legacy-push.js';
import { rules as settings } from './personal/settings.js';
import { rules as settingsAccount } from './personal/settings-account.js';
import { rules as presenceTargets } from './users/presence-targets.js';
import { rules as profileFields } from './realm/profile-fields.js';
import { rules as profileFieldsChanges } from './realm/profile-fields-changes.js';
import { rules as profileData } from './realm/profile-data.js';
import { rules as realmEmoji } from './realm/realm-emoji.js';
import { rules as playgrounds } from './realm/playgrounds.js';
import { rules as realmDomains } from './realm/realm-domains.js';
import { rules as defaultStreamGroups } from './channels/default-stream-groups.js';
import { rules as channelFolders } from './channels/channel-folders.js';
import { rules as invites } from './realm/invites.js';
import { rules as invitesRoles } from './realm/invites-roles.js';
import { rules as userGroupUpdate } from './groups/user-group-update.js';
import { rules as userGroupUpdateSettings } from './groups/user-group-update-settings.js';
import { rules as userGroupReactivation } from './groups/user-group-reactivation.js';
import { rules as channelEmailSender } from './channels/channel-email-sender.js';
import { rules as realmSettings } from './realm/realm-settings.js';
import { rules as exports } from './realm/exports.js';
import { rules as eventConvergence } from './register/event-convergence.js';
import { rules as registerStaticState } from './register/static-state.js';
const RULE_FILES: ReadonlyArray<readonly Rule[]> = [
  conventions,
  auth,
  authEndpointTable,
  fetchApiKeyLogin,
  authRateLimit,
  serverSettings,
  serverSettingsMeaning,
  users,
  usersMeaning,
  usersDefaults,
  messageHistory,
  messageHistoryMeaning,
  messageEdit,
  messageEditErrors,
  messageEditLimits,
  messageEditEvents,
  messageEditTyping,
  messageMove,
  messageMoveNotifications,
  messageMoveRoles,
  messageMoveNarrowed,
  messageMoveEvents,
  messageDelete,
  messageDeleteEvents,
  push,
  reportMessage,
  reportMessageSharp,
  userSettingsDefaults,
  userSettingsDefaultsEffects,
  userSettingsDefaultsValues,
  subscriptions,
  streams,
  typing,
  typingSharp,
  userTopics,
  userTopicsTransitions,
  markTopicAsRead,
  markTopicAsReadScope,
  reactions,
  reactionsEvents,
  messageFlags,
  messageFlagsEvents,
  messageFlagsNarrow,
  messageFlagsMark,
  messageFlagsMarkScope,
  unread,
  readReceipts,
  deactivateUser,
  deactivateUserRoles,
  linkifiers,
  presence,
  presenceReads,
  presenceSharp,
  reminders,
  scheduledMessages,
  remindersSharp,
  attachments,
  attachmentsSharp,
  userStatus,
  userStatusErrors,
  userStatusSharp,
  drafts,
  draftsErrors,
  draftsSharp,
  navigationViews,
  navigationViewsChecks,
  userGroups,
  userGroupNames,
  userGroupRoles,
  userGroupSettings,
  userGroupSubgroups,
  linkifiersChanges,
  linkifiersEvents,
  messageFetchModel,
  sendMessage,
  sendMessageLimits,
  sendMessageAccess,
  sendMessageEvents,
  messageFetchAnchors,
  messageFetchNarrows,
  messageFetchAccess,
  messageGet,
  messageRender,
  topicLinks,
  bots,
  botsRoles,
  botsUpdate,
  botsKeys,
  botsEvents,
  createUser,
  updateUser,
  userEmail,
  reactivateUser,
  deactivateOwnUser,
  pointer,
  alertWords,
  mutedUsers,
  onboardingSteps,
  hotspots,
  savedSnippets,
  legacyPush,
  settings,
  settingsAccount,
  presenceTargets,
  profileFields,
  profileFieldsChanges,
  profileData,
  realmEmoji,
  playgrounds,
  realmDomains,
  defaultStreamGroups,
  channelFolders,
  invites,
  invitesRoles,
  userGroupUpdate,
  userGroupUpdateSettings,
  userGroupReactivation,
  channelEmailSender,
  realmSettings,
  exports,
  eventConvergence,
  registerStaticState,
];

const ID_FORMAT = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\/[a-z0-9]+(?:-[a-z0-9]+)*)+$/;

/** Throws on duplicate or malformed ids and unknown deviation ids (rule-authoring mistakes). */
export function validateRules(rules: readonly Rule[]): void {
  const seen = new Set<string>();
  for (const rule of rules) {
    if (!ID_FORMAT.test(rule.id)) throw new Error(`rule id '${rule.id}' must look like 'resource/behaviour-in-kebab-case'`);
    if (seen.has(rule.id)) throw new Error(`duplicate rule id '${rule.id}'`);
    seen.add(rule.id);
    if (rule.deviation !== undefined && !isDeviationId(rule.deviation)) throw new Error(`rule '${rule.id}': unknown deviation '${rule.deviation}'`);
    const { min, max } = rule.levels ?? {};
    if (min !== undefined && max !== undefined && min > max) throw new Error(`rule '${rule.id}': empty feature-level range`);
  }
}

/** All registered rules. */
export function allRules(): readonly Rule[] {
  return RULE_FILES.flat();
}
