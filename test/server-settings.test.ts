import t from 'tap';
import { Client, testServer } from './support/harness.js';

t.test('server_settings needs no authentication and ignores a bad Authorization header', async (t) => {
  const s = testServer();
  for (const client of [s.anonymous, new Client(s.app, 'Basic garbage')]) {
    const reply = await client.get('/server_settings');
    t.equal(reply.status, 200);
    t.equal(reply.body.zulip_feature_level, 415);
    t.equal(reply.body.realm_name, 'Zulip Dev');
    t.equal(reply.body.realm_url, 'http://localhost:9991');
    t.equal(reply.body.realm_uri, 'http://localhost:9991');
    t.equal(reply.body.push_notifications_enabled, false);
    t.equal(reply.body.authentication_methods.password, true);
    t.match(reply.body.realm_description, /^<p>.*<\/p>$/);
  }
});

t.test('server_settings reports the emulated feature level and its dated fields', async (t) => {
  const old = await testServer({ featureLevel: 256 }).anonymous.get('/server_settings');
  t.equal(old.body.zulip_feature_level, 256);
  t.notOk('realm_url' in old.body, 'realm_url arrived at level 257');
  t.equal(old.body.realm_uri, 'http://localhost:9991');
});

t.test('server_settings never reports ignored parameters and answers other methods with an empty 405', async (t) => {
  const s = testServer();
  const reply = await s.anonymous.get('/server_settings', { junk: '1' });
  t.notOk('ignored_parameters_unsupported' in reply.body);
  const post = await s.anonymous.post('/server_settings');
  t.equal(post.status, 405);
  t.equal(post.text, '');
  t.equal(post.headers.Allow, 'GET, HEAD');
});

t.test('is_incompatible is true only for the ZulipInvalid client', async (t) => {
  const s = testServer();
  const invalid = await s.anonymous.get('/server_settings', {}, { headers: { 'user-agent': 'ZulipInvalid/1.0' } });
  t.equal(invalid.body.is_incompatible, true);
  const mobile = await s.anonymous.get('/server_settings', {}, { headers: { 'user-agent': 'ZulipMobile/27.0' } });
  t.equal(mobile.body.is_incompatible, false);
});

t.test('push_notifications_enabled follows the push configuration', async (t) => {
  const reply = await testServer({ pushConfigured: true }).anonymous.get('/server_settings');
  t.equal(reply.body.push_notifications_enabled, true);
});
