/**
 * A saved world is checked whole before anything is restored: every problem (types, unknown
 * users, channels, messages and groups, ID counters behind existing IDs, names that would be
 * object keys) is reported at once with its JSON path, and a state file with problems is left as
 * it is. Names such as `__proto__` and `constructor` are data and survive a save.
 */
import { gunzipSync } from 'node:zlib';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { World } from '../lib/state/world.js';
import { NOT_STATE } from '../lib/state/world-snapshot.js';
import { WORLD_FIELDS } from '../lib/state/snapshot/fields.js';
import { createApp, ManualClock, restoreWorld, SnapshotError, snapshotWorld, startServer } from '../server/index.js';
import { type Document, entity, entryIndex, fieldIndex, literally, removeField, setCounter, setField } from './support/snapshot-edit.js';
import { basic, Client, testServer, type TestServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';

async function upload(s: TestServer, content: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([content]), 'notes.txt');
  const response = new Response(form);
  const rawBody = { contentType: response.headers.get('content-type') as string, body: new Uint8Array(await response.arrayBuffer()) };
  return (await s.as(HAMLET).post('/user_uploads', {}, { rawBody })).body.url as string;
}

/** A world with one of most things: an uploaded file linked from a message, a draft, a reminder, a scheduled message, an email. */
async function richWorld(): Promise<{ s: TestServer; messageId: number; attachmentId: number }> {
  const s = testServer();
  const url = await upload(s, 'file bytes');
  const sent = await s.as(HAMLET).post('/messages', { type: 'stream', to: 'Denmark', topic: 'files', content: `[notes](${url})` });
  await s.as(HAMLET).post('/drafts', { drafts: [{ type: 'stream', to: [s.streamId('Denmark')], topic: 'draft', content: 'unsent', timestamp: 1_700_000_000 }] });
  await s.as(HAMLET).post('/reminders', { message_id: sent.body.id, scheduled_delivery_timestamp: Math.floor(s.clock.now() / 1000) + 3600 });
  await s.as(HAMLET).post('/scheduled_messages', { type: 'direct', to: [s.id('othello@zulip.com')], content: 'later', scheduled_delivery_timestamp: Math.floor(s.clock.now() / 1000) + 3600 });
  await s.as('iago@zulip.com').delete(`/users/${s.id('othello@zulip.com')}`, { deactivation_notification_comment: 'bye' });
  return { s, messageId: sent.body.id as number, attachmentId: [...s.world.attachments.keys()][0] as number };
}

const documentOf = (s: TestServer): Document => JSON.parse(JSON.stringify(snapshotWorld(s.world))) as Document;

function problemsOf(doc: unknown): readonly string[] {
  try {
    restoreWorld(doc);
  } catch (error) {
    if (error instanceof SnapshotError) return error.problems;
    throw error;
  }
  return [];
}

t.test('every World field is either saved with a schema or deliberately not saved', async (t) => {
  const fields = Object.keys(new World({ clock: new ManualClock(0) }));
  t.same(fields.filter((name) => !WORLD_FIELDS.has(name) && !NOT_STATE.has(name)), []);
});

t.test('a rich world (uploaded bytes included) saves and restores without a problem', async (t) => {
  const { s, attachmentId } = await richWorld();
  const doc = documentOf(s);
  t.same(problemsOf(doc), []);
  const restored = restoreWorld(doc);
  t.same([...(restored.attachments.get(attachmentId)?.bytes ?? [])], [...Buffer.from('file bytes')], 'the bytes of the upload survive');
  t.equal(restored.reminders.size, 1);
  // The reminder took ID 1 of the sequence reminders and scheduled messages share.
  t.same(restored.scheduledMessages.get(2), s.world.scheduledMessages.get(2), 'the scheduled message survives');
  t.ok(s.world.scheduledMessages.has(2));
  t.equal(restored.outbox.length, s.world.outbox.length);
});

t.test('a world with a delivery delay can be saved (its pipeline is not state)', async (t) => {
  const s = testServer({ deliveryDelayMs: 20 });
  t.same(problemsOf(documentOf(s)), []);
});

interface Broken {
  readonly what: string;
  readonly edit: (doc: Document, ids: { messageId: number; attachmentId: number; hamlet: number; denmark: number; group: number }) => void;
  readonly problems: readonly RegExp[];
}

const BROKEN: readonly Broken[] = [
  {
    what: 'a message from an unknown user',
    edit: (doc, { messageId }) => setField(entity(doc, 'messages', messageId), 'senderId', 999),
    problems: [/^messages\[\d+\]\.senderId \(at \$\.state\.messages\.\$map\[\d+\]\[1\]\.\$object\[1\]\[1\]\): refers to an unknown user 999$/],
  },
  {
    what: 'a message in an unknown channel',
    edit: (doc, { messageId }) => setField(entity(doc, 'messages', messageId), 'recipient', { $object: [['kind', 'stream'], ['streamId', 777], ['topic', 't']] }),
    problems: [/^messages\[\d+\]\.recipient\.streamId \(at .*\): refers to an unknown stream 777$/],
  },
  {
    what: 'an attachment linked from an unknown message',
    edit: (doc, { attachmentId }) => setField(entity(doc, 'attachments', attachmentId), 'messageIds', { $set: [123456] }),
    problems: [/^attachments\[\d+\]\.messageIds\[0\] \(at .*\.\$set\[0\]\): refers to an unknown message 123456$/],
  },
  {
    what: 'a group with an unknown subgroup',
    edit: (doc, { group }) => setField(entity(doc, 'groups', group), 'subgroups', { $set: [4242] }),
    problems: [/^groups\[\d+\]\.subgroups\[0\] .*: refers to an unknown group 4242$/],
  },
  {
    what: 'a default channel group holding an unknown channel',
    edit: (doc) => {
      const group = { $object: [['id', 1], ['name', 'g'], ['description', ''], ['streamIds', { $set: [888] }]] };
      (doc.state as Record<string, unknown>).defaultStreamGroups = { $map: [[1, group]] };
      setCounter(doc, 'defaultStreamGroup', 1);
    },
    problems: [/^defaultStreamGroups\[1\]\.streamIds\[0\] .*: refers to an unknown stream 888$/],
  },
  {
    what: 'a draft to an unknown channel',
    edit: (doc) => setField(entity(doc, 'drafts', 1), 'to', [555]),
    problems: [/^drafts\[1\]\.to .*: refers to an unknown stream 555$/],
  },
  {
    what: 'a reminder of a message never created',
    edit: (doc) => setField(entity(doc, 'reminders', 1), 'targetMessageId', 99_999),
    problems: [/^reminders\[1\]\.targetMessageId .*: refers to a never-created message 99999$/],
  },
  {
    what: 'a scheduled message to an unknown user',
    edit: (doc) => setField(entity(doc, 'scheduledMessages', 2), 'recipient', { $object: [['kind', 'direct'], ['userIds', [10, 4242]]] }),
    problems: [/^scheduledMessages\[2\]\.recipient\.userIds\[1\] .*: refers to an unknown user 4242$/],
  },
  {
    what: 'a message ID counter behind the newest message',
    edit: (doc) => setCounter(doc, 'message', 3),
    problems: [/^ids \(at \$\.ids\): the message counter is 3, behind the existing message \d+ \(the next message would take an ID in use\)$/],
  },
  {
    what: 'fields of the wrong type, an unknown role and a missing field',
    edit: (doc, { hamlet }) => {
      const user = entity(doc, 'users', hamlet);
      setField(user, 'fullName', 5);
      setField(user, 'role', 250);
      removeField(user, 'apiKey');
    },
    problems: [
      /^users\[10\]\.fullName \(at \$\.state\.users\.\$map\[\d+\]\[1\]\.\$object\[\d+\]\[1\]\): expected a string, got 5$/,
      /^users\[10\]\.role .*: expected one of 100, 200, 300, 400, 600, got 250$/,
      /^users\[10\] .*: a user needs the field apiKey$/,
    ],
  },
  {
    what: 'prototype names as fields and as a key of a record',
    edit: (doc, { hamlet }) => {
      setField(entity(doc, 'users', hamlet), '__proto__', { $object: [['isAdmin', true]] });
      setField(entity(doc, 'users', hamlet), 'constructor', 'x');
      const emails = doc.state.outbox as Array<Record<string, unknown>>;
      setField(emails[0] as Record<string, unknown>, 'context', { $object: [['__proto__', 'x']] });
    },
    problems: [/^users\[10\]\.__proto__ .*: a user has no field "__proto__"$/, /^users\[10\]\.constructor .*: a user has no field "constructor"$/, /^outbox\[0\]\.context\[0\] .*: expected a \[name, value\] pair with a lower-case identifier/],
  },
  {
    what: 'a key twice in a map, and a value that is not a saved value',
    edit: (doc, { denmark }) => {
      const streams = (doc.state.streams as { $map: unknown[][] }).$map;
      streams.push([...(streams[entryIndex(doc, 'streams', denmark)] as unknown[])]);
      (doc.state as Record<string, unknown>).defaultStreamIds = { streams: [1] };
    },
    problems: [/^streams\[\d+\] .*: the key \d+ appears twice$/, /^defaultStreamIds \(at \$\.state\.defaultStreamIds\): expected a set/],
  },
];

t.test('each kind of problem is reported with its JSON path, and all problems of a file at once', async (t) => {
  const { s, messageId, attachmentId } = await richWorld();
  const group = [...s.world.groups.values()].find((candidate) => candidate.name === 'hamletcharacters')!.id;
  const ids = { messageId, attachmentId, hamlet: s.id(HAMLET), denmark: s.streamId('Denmark'), group };
  for (const broken of BROKEN) {
    const doc = documentOf(s);
    broken.edit(doc, ids);
    const problems = problemsOf(doc);
    t.equal(problems.length, broken.problems.length, `${broken.what}: ${problems.join(' | ')}`);
    for (const expected of broken.problems) t.ok(problems.some((problem) => expected.test(problem)), `${broken.what}: ${String(expected)}`);
  }
  const everything = documentOf(s);
  for (const broken of BROKEN) broken.edit(everything, ids);
  const all = problemsOf(everything);
  t.equal(all.length, BROKEN.reduce((sum, broken) => sum + broken.problems.length, 0), 'one document with every problem lists each of them');
  t.equal(({} as Record<string, unknown>).isAdmin, undefined, 'nothing reached Object.prototype');
});

t.test('a JSON path points at the value it names', async (t) => {
  const { s, messageId } = await richWorld();
  const doc = documentOf(s);
  const message = entity(doc, 'messages', messageId);
  setField(message, 'senderId', 999);
  const path = /\(at \$\.state\.messages\.\$map\[(\d+)\]\[1\]\.\$object\[(\d+)\]\[1\]\)/.exec(problemsOf(doc)[0] ?? '');
  t.equal(Number(path?.[1]), entryIndex(doc, 'messages', messageId));
  t.equal(Number(path?.[2]), fieldIndex(message, 'senderId'));
});

t.test('names such as __proto__ and constructor are data: a channel, a topic, a name and an alert word survive a restore', async (t) => {
  const s = testServer();
  const iago = s.as('iago@zulip.com');
  t.equal((await iago.post('/users/me/subscriptions', { subscriptions: [{ name: '__proto__' }, { name: 'constructor' }] })).status, 200);
  t.equal((await s.as(HAMLET).post('/messages', { type: 'stream', to: 'Denmark', topic: '__proto__', content: 'hasOwnProperty' })).status, 200);
  t.equal((await s.as(HAMLET).patch('/settings', { full_name: 'constructor' })).status, 200);
  t.equal((await s.as(HAMLET).post('/users/me/alert_words', { alert_words: ['__proto__', 'toString'] })).status, 200);
  const restored = createApp({ world: restoreWorld(JSON.parse(JSON.stringify(snapshotWorld(s.world)))), logger: () => undefined });
  t.teardown(() => restored.close());
  const hamlet = s.world.usersByEmail.get(HAMLET)!;
  const client = new Client(restored, basic(hamlet.deliveryEmail, hamlet.apiKey));
  t.equal((await client.get('/get_stream_id', { stream: '__proto__' })).body.stream_id, s.streamId('__proto__'));
  t.equal((await client.get('/get_stream_id', { stream: 'constructor' })).body.stream_id, s.streamId('constructor'));
  t.equal((await client.get('/users/me')).body.full_name, 'constructor');
  t.same((await client.get('/users/me/alert_words')).body.alert_words, ['__proto__', 'toString']);
  const topics = await client.get(`/users/me/${s.streamId('Denmark')}/topics`);
  t.ok((topics.body.topics as Array<{ name: string }>).some((topic) => topic.name === '__proto__'));
});

t.test('a state file saved by version 1 (which kept the rebuilt indexes) still loads', async (t) => {
  const path = fileURLToPath(new URL('../../test/fixtures/state/version-1.json.gz', import.meta.url));
  const doc = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as Document;
  t.equal(doc.version, 1);
  t.same(problemsOf(doc), []);
  const world = restoreWorld(doc);
  const hamlet = world.usersByEmail.get(HAMLET)!;
  const channel = world.streamByName('version one')!;
  t.ok(world.subscriptionsOf(hamlet.id).get(channel.id)?.active, 'the per-user subscriptions are rebuilt');
  t.ok([...world.messages.values()].some((message) => message.content === 'kept'));
});

t.test('a state file with problems stops the server with every problem listed, and is left byte for byte', async (t) => {
  const { s, messageId } = await richWorld();
  const doc = documentOf(s);
  setField(entity(doc, 'messages', messageId), 'senderId', 999);
  setCounter(doc, 'message', 3);
  const path = join(mkdtempSync(join(tmpdir(), 'state-validation-')), 'state.json');
  const text = JSON.stringify(doc);
  writeFileSync(path, text);
  await t.rejects(startServer({ logger: () => undefined, statePath: path }), {
    name: 'StateFileError',
    message: new RegExp(`^the state file ${literally(path).source} cannot be loaded, it was left as it is: 2 problems:\\n  ids .*\\n  messages\\[`),
  });
  t.equal(readFileSync(path, 'utf8'), text);
});
