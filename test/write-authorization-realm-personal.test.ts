/**
 * Refused writes (test/support/write-auth-realm.ts, test/support/write-auth-personal.ts): for each route, role and
 * target the real server refuses, the same status and code here, and a world unchanged by it.
 */
import t from 'tap';
import { REALM_RULES } from './support/write-auth-realm.js';
import { PERSONAL_RULES } from './support/write-auth-personal.js';
import { checkRefusals } from './support/write-auth.js';
import { buildScene } from './support/write-scene.js';

t.test('every refused write is refused as the real server refuses it, and changes nothing', async (t) => {
  const scene = await buildScene();
  t.teardown(() => scene.s.app.close());
  await checkRefusals(t, [...REALM_RULES, ...PERSONAL_RULES], scene);
});
