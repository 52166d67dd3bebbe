import t from 'tap';
import { namedGroup } from '../lib/entities/group.js';
import type { RealmPermissionSetting } from '../lib/entities/realm.js';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';
const IAGO = 'iago@zulip.com';
const NO_RESOLVE = bad("You don't have permission to resolve topics in this channel.");

const toNobody = (s: TestServer, setting: RealmPermissionSetting): void => {
  s.world.realm.settings.set(setting, namedGroup(s.world.systemGroupId('role:nobody')));
};

async function send(s: TestServer): Promise<number> {
  const reply = await s.as(HAMLET).post('/messages', { type: 'stream', to: 'Verona', topic: 'lunch plans', content: 'hello' });
  return reply.body.id as number;
}

t.test('with can_resolve_topics_group set to nobody, not even an administrator may resolve a topic', async (t) => {
  const s = testServer();
  toNobody(s, 'can_resolve_topics_group');
  const id = await send(s);
  t.same(errorOf(await s.as(IAGO).patch(`/messages/${id}`, { topic: '✔ lunch plans', propagate_mode: 'change_all' })), NO_RESOLVE);
  t.equal((await s.as(IAGO).patch(`/messages/${id}`, { topic: 'brunch plans' })).status, 200, 'renaming is still an administrator’s right');
});

t.test('before level 367 resolving follows the topic-move right, not can_resolve_topics_group', async (t) => {
  const s = testServer({ featureLevel: 366 });
  toNobody(s, 'can_resolve_topics_group');
  const id = await send(s);
  t.equal((await s.as(HAMLET).patch(`/messages/${id}`, { topic: '✔ lunch plans', propagate_mode: 'change_all' })).status, 200);
  toNobody(s, 'can_move_messages_between_topics_group');
  t.same(errorOf(await s.as(HAMLET).patch(`/messages/${id}`, { topic: 'lunch plans', propagate_mode: 'change_all' })), NO_RESOLVE);
});

t.test('before level 396 administrators move only with the realm setting; from 396 they always may', async (t) => {
  for (const [level, status] of [[395, 400], [396, 200]] as const) {
    const s = testServer({ featureLevel: level });
    toNobody(s, 'can_move_messages_between_topics_group');
    const id = await send(s);
    t.equal((await s.as(IAGO).patch(`/messages/${id}`, { topic: 'elsewhere' })).status, status, `level ${level}`);
  }
});
