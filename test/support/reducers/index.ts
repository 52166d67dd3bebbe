/** Every reducer module; importing this registers them all. */
import './bots.js';
import './drafts.js';
import './linkifiers.js';
import './messages.js';
import './navigation-views.js';
import './personal-lists.js';
import './presence.js';
import './realm.js';
import './reminders.js';
import './settings.js';
import './subscriptions.js';
import './user-status.js';
import './user-topics.js';
import './users.js';
