/**
 * Refused writes (test/support/write-auth-channels.ts, test/support/write-auth-messages.ts): for each route, role and
 * target the real server refuses, the same status and code here, and a world unchanged by it.
 */
import t from 'tap';
import { CHANNEL_RULES } from './support/write-auth-channels.js';
import { MESSAGE_RULES } from './support/write-auth-messages.js';
import { checkRefusals } from './support/write-auth.js';
import { buildScene } from './support/write-scene.js';

t.test('every refused write is refused as the real server refuses it, and changes nothing', async (t) => {
  const scene = await buildScene();
  t.teardown(() => scene.s.app.close());
  await checkRefusals(t, [...CHANNEL_RULES, ...MESSAGE_RULES], scene);
});
