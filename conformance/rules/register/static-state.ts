/**
 * Register state that is fixed for a deployment (zerver/lib/events.py `fetch_initial_state_data`):
 * `stop_words`, the words its full-text search ignores, and `realm_embedded_bots`, the embedded
 * bot types with their configuration templates. Only their form is checked: a deployment may
 * change either list (its own stop-word file, another zulip_bots version).
 */
import type { JsonObject } from '../../client/api-client.js';
import { check } from '../../expect/assert.js';
import { registerState } from '../support/state-fetch.js';
import type { Rule } from '../types.js';

const isStringRecord = (value: unknown): boolean =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && Object.values(value).every((entry) => typeof entry === 'string');

export const stopWordsWhenAsked: Rule = {
  id: 'static-state/stop-words-when-asked',
  title: 'stop_words is a list of strings, present when asked for and absent otherwise',
  endpoint: 'POST /register',
  section: 'api/register-queue (stop_words)',
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const client = ctx.as('user');
    const { body, reply } = await registerState(client, ['stop_words']);
    const words = body.stop_words;
    check(Array.isArray(words), 'register with fetch_event_types ["stop_words"] gave no stop_words list', reply);
    // Only the form: the list is a file a deployment may edit (read line by line, blank lines too).
    check(
      words.every((word) => typeof word === 'string'),
      () => `stop_words holds something other than strings: ${JSON.stringify(words).slice(0, 200)}`,
      reply,
    );
    const other = await registerState(client, ['alert_words']);
    check(!('stop_words' in other.body), 'stop_words came with a register that did not ask for it', other.reply);
  },
};

export const embeddedBotsShape: Rule = {
  id: 'static-state/embedded-bots-shape',
  title: 'realm_embedded_bots lists each embedded bot once, by name, with a config of string values',
  endpoint: 'POST /register',
  section: 'api/register-queue (realm_embedded_bots)',
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const { body, reply } = await registerState(ctx.as('user'), ['realm_embedded_bots']);
    const bots = body.realm_embedded_bots;
    check(Array.isArray(bots), 'register with fetch_event_types ["realm_embedded_bots"] gave no realm_embedded_bots list', reply);
    const names = new Set<string>();
    for (const bot of bots as JsonObject[]) {
      check(typeof bot.name === 'string' && bot.name.length > 0, () => `an embedded bot without a name: ${JSON.stringify(bot)}`, reply);
      check(!names.has(bot.name), `embedded bot ${bot.name} listed twice`, reply);
      names.add(bot.name);
      check(isStringRecord(bot.config), () => `embedded bot ${String(bot.name)} has a config that is not an object of strings: ${JSON.stringify(bot.config)}`, reply);
    }
  },
};

export const rules: readonly Rule[] = [stopWordsWhenAsked, embeddedBotsShape];
