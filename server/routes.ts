/** The route table: one module per resource, in Django's first-match order (users last, for its catch-all). */
import type { RouteDef } from './endpoint.js';
import { routes as serverSettings } from './endpoints/server-settings.js';
import { routes as auth } from './endpoints/auth.js';
import { routes as subscriptions } from './endpoints/subscriptions.js';
import { routes as typing } from './endpoints/typing.js';
import { routes as register } from './endpoints/register.js';
import { routes as events } from './endpoints/events.js';
import { routes as realm } from './endpoints/realm.js';
import { routes as realmEmoji } from './endpoints/realm-emoji.js';
import { routes as settings } from './endpoints/settings.js';
import { routes as userTopics } from './endpoints/user-topics.js';
import { routes as presence } from './endpoints/presence.js';
import { routes as userStatus } from './endpoints/user-status.js';
import { routes as drafts } from './endpoints/drafts.js';
import { routes as userGroups } from './endpoints/user-groups.js';
import { routes as messages } from './endpoints/messages.js';
import { routes as messageRender } from './endpoints/message-render.js';
import { routes as push } from './endpoints/push.js';
import { routes as navigationViews } from './endpoints/navigation-views.js';
import { routes as linkifiers } from './endpoints/linkifiers.js';
import { routes as reminders } from './endpoints/reminders.js';
import { routes as attachments } from './endpoints/attachments.js';
import { routes as userUploads } from './endpoints/user-uploads.js';
import { routes as usersAdmin } from './endpoints/users-admin.js';
import { routes as users } from './endpoints/users.js';

export const ROUTES: readonly RouteDef[] = [
  ...serverSettings,
  ...auth,
  ...subscriptions,
  ...typing,
  ...register,
  ...events,
  ...realm,
  ...realmEmoji,
  ...settings,
  ...userTopics,
  ...presence,
  ...userStatus,
  ...drafts,
  ...userGroups,
  ...messages,
  ...messageRender,
  ...push,
  ...navigationViews,
  ...linkifiers,
  ...reminders,
  ...attachments,
  ...userUploads,
  ...usersAdmin,
  ...users,
];
