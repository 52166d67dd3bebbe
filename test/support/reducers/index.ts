/** Every reducer module; importing this registers them all. */
import './drafts.js';
import './linkifiers.js';
import './message-edit-typing.js';
import './messages.js';
import './navigation-views.js';
import './presence.js';
import './reactions.js';
import './realm.js';
import './reminders.js';
import './settings.js';
import './subscriptions.js';
import './user-status.js';
import './user-topics.js';
import './users.js';
import './unread.js';
import './starred.js';
