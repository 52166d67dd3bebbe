/** The route table: one module per resource, in Django's first-match order (users last, for its catch-all). */
import type { RouteDef } from './endpoint.js';
import { routes as serverSettings } from './endpoints/server-settings.js';
import { routes as auth } from './endpoints/auth.js';
import { routes as subscriptions } from './endpoints/subscriptions.js';
import { routes as streams } from './endpoints/streams.js';
import { routes as streamPreferences } from './endpoints/stream-preferences.js';
import { routes as typing } from './endpoints/typing.js';
import { routes as register } from './endpoints/register.js';
import { routes as events } from './endpoints/events.js';
import { routes as realm } from './endpoints/realm.js';
import { routes as realmEmoji } from './endpoints/realm-emoji.js';
import { routes as profileFields } from './endpoints/profile-fields.js';
import { routes as playgrounds } from './endpoints/playgrounds.js';
import { routes as invites } from './endpoints/invites.js';
import { routes as exports } from './endpoints/exports.js';
import { routes as realmDeactivation } from './endpoints/realm-deactivation.js';
import { routes as settings } from './endpoints/settings.js';
import { routes as userTopics } from './endpoints/user-topics.js';
import { routes as presence } from './endpoints/presence.js';
import { routes as userStatus } from './endpoints/user-status.js';
import { routes as drafts } from './endpoints/drafts.js';
import { routes as userGroups } from './endpoints/user-groups.js';
import { routes as userGroupUpdate } from './endpoints/user-group-update.js';
import { routes as messages } from './endpoints/messages.js';
import { routes as messageFetch } from './endpoints/message-fetch.js';
import { routes as messageFlagsNarrow } from './endpoints/message-flags-narrow.js';
import { routes as reactions } from './endpoints/reactions.js';
import { routes as messageFlags } from './endpoints/message-flags.js';
import { routes as messageDelete } from './endpoints/message-delete.js';
import { routes as topics } from './endpoints/topics.js';
import { routes as readReceipts } from './endpoints/read-receipts.js';
import { routes as messageEditTyping } from './endpoints/message-edit-typing.js';
import { routes as messageRender } from './endpoints/message-render.js';
import { routes as push } from './endpoints/push.js';
import { routes as navigationViews } from './endpoints/navigation-views.js';
import { routes as linkifiers } from './endpoints/linkifiers.js';
import { routes as reminders } from './endpoints/reminders.js';
import { routes as attachments } from './endpoints/attachments.js';
import { routes as bots } from './endpoints/bots.js';
import { routes as alertWords } from './endpoints/alert-words.js';
import { routes as mutedUsers } from './endpoints/muted-users.js';
import { routes as ownAccount } from './endpoints/own-account.js';
import { routes as savedSnippets } from './endpoints/saved-snippets.js';
import { routes as legacyPush } from './endpoints/legacy-push.js';
import { routes as userUploads } from './endpoints/user-uploads.js';
import { routes as usersAdmin } from './endpoints/users-admin.js';
import { routes as users } from './endpoints/users.js';

export const ROUTES: readonly RouteDef[] = [
  ...serverSettings,
  ...auth,
  ...subscriptions,
  ...streams,
  ...streamPreferences,
  ...typing,
  ...register,
  ...events,
  ...realm,
  ...realmEmoji,
  ...profileFields,
  ...playgrounds,
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
  ...attachments,
  ...bots,
  ...alertWords,
  ...mutedUsers,
  ...ownAccount,
  ...savedSnippets,
  ...legacyPush,
  ...userUploads,
  ...usersAdmin,
  ...users,
];
