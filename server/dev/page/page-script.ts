/**
 * The development page's script. It only reads the development endpoints (JSON) and builds the
 * DOM with text nodes, never markup, so names, topics and message content always show as text;
 * a message's stored HTML is shown only on demand, in a sandboxed frame (no scripts, no origin).
 * The live log asks `/__dev/log` each second for what is newer than the last entry it has, and
 * keeps at most LOG_LINES lines; the panels are read again when the log moved.
 */
export const LOG_LINES = 200;

export const PAGE_SCRIPT = String.raw`'use strict';
const LOG_LINES = ${String(LOG_LINES)};
const byId = (id) => document.getElementById(id);
const state = { after: 0, dirty: true, refreshedAt: 0 };

function el(tag, props, children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props || {})) {
    if (name.startsWith('data-')) node.setAttribute(name, String(value));
    else node[name] = value;
  }
  for (const child of children || []) node.append(child instanceof Node ? child : document.createTextNode(String(child ?? '')));
  return node;
}

async function read(path) {
  const answer = await fetch(path, { cache: 'no-store', headers: { Accept: 'application/json' } });
  if (!answer.ok) throw new Error(path + ' answered HTTP ' + answer.status);
  return answer.json();
}

const clockTime = (ms) => new Date(ms).toISOString().slice(11, 19);

function copyButton(key) {
  const button = el('button', { type: 'button', className: 'copy', title: 'copy the API key', 'data-key': key }, ['copy']);
  button.addEventListener('click', () => {
    const done = (text) => { button.textContent = text; setTimeout(() => { button.textContent = 'copy'; }, 1500); };
    if (navigator.clipboard) navigator.clipboard.writeText(key).then(() => done('copied'), () => window.prompt('API key', key));
    else window.prompt('API key', key);
  });
  return button;
}

function showUsers(data) {
  byId('users-total').textContent = String(data.total);
  byId('users').tBodies[0].replaceChildren(...data.users.map((user) => el('tr', { 'data-user-id': user.user_id, 'data-email': user.email, className: user.is_active ? '' : 'muted' }, [
    el('td', {}, [user.full_name, user.is_bot ? ' (bot)' : '']),
    el('td', { className: 'mono' }, [user.email]),
    el('td', { className: 'role role-' + user.role_name }, [user.role_name]),
    el('td', {}, [user.user_id]),
    el('td', {}, [copyButton(user.api_key)]),
  ])));
}

function showChannels(data) {
  byId('channels-total').textContent = String(data.total);
  byId('channels').tBodies[0].replaceChildren(...data.channels.map((channel) => el('tr', { 'data-channel-id': channel.stream_id, 'data-name': channel.name, className: channel.is_archived ? 'muted' : '' }, [
    el('td', {}, ['#', channel.name]),
    el('td', {}, [channel.is_archived ? 'archived' : channel.invite_only ? 'private' : channel.is_web_public ? 'web-public' : 'public']),
    el('td', {}, [channel.subscriber_count]),
    el('td', { className: 'muted' }, [channel.description]),
  ])));
}

function renderedFrame(html) {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', '');
  frame.setAttribute('title', 'the message as the server stored it (HTML)');
  frame.srcdoc = html;
  return frame;
}

function showMessages(data) {
  byId('messages-total').textContent = String(data.total);
  byId('messages').replaceChildren(...data.messages.map((message) => {
    const where = message.type === 'stream' ? '#' + message.channel + ' > ' + message.topic : 'DM ' + message.names.join(', ');
    const toggle = el('button', { type: 'button', className: 'html' }, ['HTML']);
    const item = el('li', { 'data-message-id': message.id }, [
      el('div', { className: 'muted' }, [clockTime(message.timestamp * 1000), ' ', message.sender_full_name, ' in ', where, ' ', toggle]),
      el('div', { className: 'text' }, [message.content]),
    ]);
    toggle.addEventListener('click', () => {
      const open = item.querySelector('iframe');
      if (open) open.remove();
      else item.append(renderedFrame(message.rendered_content));
    });
    return item;
  }));
}

function showQueues(data) {
  byId('queues-total').textContent = String(data.queues.length);
  byId('queues').tBodies[0].replaceChildren(...data.queues.map((queue) => el('tr', { 'data-queue-id': queue.queue_id }, [
    el('td', { className: 'mono', title: queue.queue_id }, [queue.queue_id.slice(0, 8)]),
    el('td', {}, [queue.full_name, ' ', el('span', { className: 'muted mono' }, [queue.email])]),
    el('td', {}, [queue.event_types === null ? 'all' : queue.event_types.join(', ')]),
    el('td', {}, [queue.pending_events]),
    el('td', {}, [queue.polling ? 'yes' : 'no']),
    el('td', {}, [queue.expires_in_seconds === null ? 'while polled' : queue.expires_in_seconds + ' s']),
  ])));
}

function logLine(entry) {
  if (entry.kind === 'event') {
    const to = entry.user_count === null ? 'an audience' : entry.user_count + ' user' + (entry.user_count === 1 ? '' : 's');
    return el('li', { className: 'log-event', 'data-seq': entry.seq }, [clockTime(entry.at), ' event ', entry.type, entry.op ? ' ' + entry.op : '', ' -> ', to]);
  }
  const status = 'status-' + String(entry.status).charAt(0) + 'xx';
  const fault = entry.fault === null ? '' : ' [fault ' + entry.fault + ']';
  return el('li', { className: 'log-request ' + status + (fault ? ' fault' : ''), 'data-seq': entry.seq }, [clockTime(entry.at), ' ', entry.method, ' ', entry.path, ' ', entry.status, ' ', entry.user, ' ', entry.ms, 'ms', fault]);
}

function showLog(data) {
  const list = byId('log');
  if (data.last_seq < state.after) {
    // Another server answers now (a restart): start the log over.
    list.replaceChildren();
    state.after = 0;
    state.dirty = true;
    return;
  }
  for (const entry of data.entries) list.prepend(logLine(entry));
  while (list.children.length > LOG_LINES) list.lastElementChild.remove();
  if (data.entries.length > 0) state.dirty = true;
  state.after = data.last_seq;
}

async function refresh() {
  const [realm, clock, users, channels, messages, queues] = await Promise.all(['realm', 'clock', 'users?limit=500', 'channels?limit=500', 'messages?limit=20', 'queues'].map((path) => read('/__dev/' + path)));
  byId('realm').textContent = realm.realm_name;
  byId('level').textContent = 'feature level ' + realm.feature_level;
  document.title = realm.realm_name + ' - chat-server';
  byId('clock').textContent = clock.now + (clock.advanced_ms ? ' (advanced ' + clock.advanced_ms / 1000 + ' s)' : '');
  showUsers(users);
  showChannels(channels);
  showMessages(messages);
  showQueues(queues);
  state.dirty = false;
  state.refreshedAt = Date.now();
}

async function poll() {
  const status = byId('status');
  try {
    showLog(await read('/__dev/log?after=' + state.after));
    if (state.dirty || Date.now() - state.refreshedAt > 5000) await refresh();
    status.textContent = 'live';
    status.className = 'muted';
  } catch (error) {
    status.textContent = 'disconnected: ' + error.message;
    status.className = 'down';
  }
  setTimeout(poll, 1000);
}

poll();
`;
