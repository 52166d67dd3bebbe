/**
 * Every rule of the suite, in one list. A new rule file exports `rules: Rule[]` and is added to
 * `RULE_FILES` below; ids must be unique and in the `<resource>/<behaviour>` form.
 */
import { isDeviationId } from '../deviations.js';
import { rules as auth } from './auth.js';
import { rules as authEndpointTable } from './auth-endpoint-table.js';
import { rules as authRateLimit } from './auth-rate-limit.js';
import { rules as fetchApiKeyLogin } from './fetch-api-key-login.js';
import { rules as serverSettingsMeaning } from './server-settings-meaning.js';
import { rules as usersMeaning } from './users-meaning.js';
import { rules as usersDefaults } from './users-defaults.js';
import { rules as deactivateUserRoles } from './deactivate-user-roles.js';
import { rules as conventions } from './conventions.js';
import { rules as serverSettings } from './server-settings.js';
import { rules as subscriptions } from './subscriptions.js';
import { rules as typing } from './typing.js';
import { rules as userTopics } from './user-topics.js';
import { rules as userTopicsTransitions } from './user-topics-transitions.js';
import { rules as markTopicAsRead } from './mark-topic-as-read.js';
import { rules as markTopicAsReadScope } from './mark-topic-as-read-scope.js';
import { rules as deactivateUser } from './deactivate-user.js';
import type { Rule } from './types.js';
import { rules as userGroups } from './user-groups.js';
import { rules as userGroupSettings } from './user-group-settings.js';
import { rules as userGroupSubgroups } from './user-group-subgroups.js';
import { rules as userGroupNames } from './user-group-names.js';
import { rules as userGroupRoles } from './user-group-roles.js';
import { rules as navigationViews } from './navigation-views.js';
import { rules as navigationViewsChecks } from './navigation-views-checks.js';
import { rules as drafts } from './drafts.js';
import { rules as draftsErrors } from './drafts-errors.js';
import { rules as userStatus } from './user-status.js';
import { rules as userStatusErrors } from './user-status-errors.js';
import { rules as presence } from './presence.js';
import { rules as presenceReads } from './presence-reads.js';
import { rules as userSettingsDefaults } from './user-settings-defaults.js';
import { rules as userSettingsDefaultsEffects } from './user-settings-defaults-effects.js';
import { rules as userSettingsDefaultsValues } from './user-settings-defaults-values.js';
import { rules as users } from './users.js';
import { rules as messageHistory } from './message-history.js';
import { rules as messageHistoryMeaning } from './message-history-meaning.js';
import { rules as push } from './push.js';
import { rules as reportMessage } from './report-message.js';
import { rules as linkifiers } from './linkifiers.js';
import { rules as reminders } from './reminders.js';
import { rules as attachments } from './attachments.js';
import { rules as linkifiersChanges } from './linkifiers-changes.js';
import { rules as attachmentsSharp } from './attachments-sharp.js';
import { rules as draftsSharp } from './drafts-sharp.js';
import { rules as linkifiersEvents } from './linkifiers-events.js';
import { rules as presenceSharp } from './presence-sharp.js';
import { rules as remindersSharp } from './reminders-sharp.js';
import { rules as reportMessageSharp } from './report-message-sharp.js';
import { rules as typingSharp } from './typing-sharp.js';
import { rules as userStatusSharp } from './user-status-sharp.js';
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
  push,
  reportMessage,
  reportMessageSharp,
  userSettingsDefaults,
  userSettingsDefaultsEffects,
  userSettingsDefaultsValues,
  subscriptions,
  typing,
  typingSharp,
  userTopics,
  userTopicsTransitions,
  markTopicAsRead,
  markTopicAsReadScope,
  deactivateUser,
  deactivateUserRoles,
  linkifiers,
  presence,
  presenceReads,
  presenceSharp,
  reminders,
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
