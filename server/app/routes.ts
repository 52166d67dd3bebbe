/** The route table: one module per resource, in Django's first-match order (users last, for its catch-all). */
import type { RouteDef } from './endpoint.js';
import { routes as serverSettings } from '../endpoints/register/server-settings.js';
import { routes as auth } from '../endpoints/users/auth.js';
import { routes as subscriptions } from '../endpoints/channels/subscriptions.js';
import { routes as streams } from '../endpoints/channels/streams.js';
import { routes as streamPreferences } from '../endpoints/channels/stream-preferences.js';
import { routes as defaultStreamGroups } from '../endpoints/channels/default-stream-groups.js';
import { routes as typing } from '../endpoints/messages/typing.js';
import { routes as register } from '../endpoints/register/register.js';
import { routes as events } from '../endpoints/register/events.js';
import { routes as realm } from '../endpoints/realm/realm.js';
import { routes as realmEmoji } from '../endpoints/realm/realm-emoji.js';
import { routes as profileFields } from '../endpoints/realm/profile-fields.js';
import { routes as channelFolders } from '../endpoints/channels/channel-folders.js';
import { routes as playgrounds } from '../endpoints/realm/playgrounds.js';
import { routes as realmDomains } from '../endpoints/realm/realm-domains.js';
import { routes as invites } from '../endpoints/realm/invites.js';
import { routes as exports } from '../endpoints/realm/exports.js';
import { routes as realmDeactivation } from '../endpoints/realm/realm-deactivation.js';
import { routes as settings } from '../endpoints/personal/settings.js';
import { routes as userTopics } from '../endpoints/personal/user-topics.js';
import { routes as presence } from '../endpoints/users/presence.js';
import { routes as userStatus } from '../endpoints/users/user-status.js';
import { routes as drafts } from '../endpoints/personal/drafts.js';
import { routes as userGroups } from '../endpoints/groups/user-groups.js';
import { routes as userGroupUpdate } from '../endpoints/groups/user-group-update.js';
import { routes as messages } from '../endpoints/messages/messages.js';
import { routes as messageFetch } from '../endpoints/messages/message-fetch.js';
import { routes as messageFlagsNarrow } from '../endpoints/messages/message-flags-narrow.js';
import { routes as reactions } from '../endpoints/messages/reactions.js';
import { routes as messageFlags } from '../endpoints/messages/message-flags.js';
import { routes as messageDelete } from '../endpoints/messages/message-delete.js';
import { routes as topics } from '../endpoints/channels/topics.js';
import { routes as readReceipts } from '../endpoints/messages/read-receipts.js';
import { routes as messageEditTyping } from '../endpoints/messages/message-edit-typing.js';
import { routes as messageRender } from '../endpoints/messages/message-render.js';
import { routes as push } from '../endpoints/personal/push.js';
import { routes as navigationViews } from '../endpoints/personal/navigation-views.js';
import { routes as linkifiers } from '../endpoints/realm/linkifiers.js';
import { routes as reminders } from '../endpoints/personal/reminders.js';
import { routes as scheduledMessages } from '../endpoints/messages/scheduled-messages.js';
import { routes as attachments } from '../endpoints/personal/attachments.js';
import { routes as bots } from '../endpoints/users/bots.js';
import { routes as alertWords } from '../endpoints/personal/alert-words.js';
import { routes as mutedUsers } from '../endpoints/personal/muted-users.js';
import { routes as onboardingSteps } from '../endpoints/personal/onboarding-steps.js';
import { routes as hotspots } from '../endpoints/personal/hotspots.js';
import { routes as ownAccount } from '../endpoints/users/own-account.js';
import { routes as pointer } from '../endpoints/users/pointer.js';
import { routes as savedSnippets } from '../endpoints/personal/saved-snippets.js';
import { routes as legacyPush } from '../endpoints/personal/legacy-push.js';
import { routes as userUploads } from '../endpoints/personal/user-uploads.js';
import { routes as usersAdmin } from '../endpoints/users/users-admin.js';
import { routes as users } from '../endpoints/users/users.js';

export const ROUTES: readonly RouteDef[] = [
  ...serverSettings,
  ...auth,
  ...subscriptions,
  ...streams,
  ...streamPreferences,
  ...defaultStreamGroups,
  ...typing,
  ...register,
  ...events,
  ...realm,
  ...realmEmoji,
  ...profileFields,
  ...channelFolders,
  ...playgrounds,
  ...realmDomains,
  ...invites,
  ...exports,
  ...realmDeactivation,
  ...settings,
  ...userTopics,
  ...presence,
  ...userStatus,
  ...drafts,
  ...userGroups,
  ...userGroupUpdate,
  ...messages,
  ...messageFetch,
  ...messageFlagsNarrow,
  ...reactions,
  ...messageFlags,
  ...messageDelete,
  ...topics,
  ...readReceipts,
  ...messageEditTyping,
  ...messageRender,
  ...push,
  ...navigationViews,
  ...linkifiers,
  ...reminders,
  ...scheduledMessages,
  ...attachments,
  ...bots,
  ...alertWords,
  ...mutedUsers,
  ...onboardingSteps,
  ...hotspots,
  ...ownAccount,
  ...pointer,
  ...savedSnippets,
  ...legacyPush,
  ...userUploads,
  ...usersAdmin,
  ...users,
];
