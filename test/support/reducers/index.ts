/** Every reducer module; importing this registers them all. */
import './drafts.js';
import './exports.js';
import './invites.js';
import './linkifiers.js';
import './messages.js';
import './navigation-views.js';
import './playgrounds.js';
import './presence.js';
import './profile-fields.js';
import './realm.js';
import './realm-emoji.js';
import './reminders.js';
import './settings.js';
import './subscriptions.js';
import './user-status.js';
import './user-topics.js';
import './users.js';
