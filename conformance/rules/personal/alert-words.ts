/**
 * Alert words (`GET`/`POST`/`DELETE /users/me/alert_words`; the real server's alert_words views):
 * words are stripped, blank ones dropped, at most 100 characters, unique without regard to case
 * (an existing spelling stays; among new spellings of one word the last wins), removed without
 * regard to case, and every change sends the user an `alert_words` event with the whole list.
 * The real server keeps no order, so lists are compared as sets. Words carry the run tag and
 * are removed (and read back gone) when the rule ends; the user's own words are left alone.
 */
import type { ApiClient, Reply } from '../../client/api-client.js';
import type { IdentityName } from '../../credentials/types.js';
import { check, expectError, expectShape, expectSuccess, fail } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { credentialsRequired } from '../conventions/credentials-required.js';
import { openStreamAs } from '../support/event-stream.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import type { Rule, RuleContext } from '../types.js';

const PATH = '/users/me/alert_words';
const SECTION = 'api/add-alert-words; api/get-alert-words; api/remove-alert-words';
/** The longest alert word, in characters (`AlertWord.MAX_ALERT_WORD_LENGTH`). */
const MAX_WORD_LENGTH = 100;

const listShape = v.object({ alert_words: v.array(v.string()) });

/** The `alert_words` of an answer (success expected). */
function wordsOf(reply: Reply): string[] {
  return expectShape(expectSuccess(reply), listShape, 'body', reply).alert_words;
}

/** Fails unless `words` holds exactly the `expected` spellings among those carrying `tag`. */
function expectTagged(words: readonly string[], tag: string, expected: readonly string[], what: string, reply?: Reply): void {
  const ours = words.filter((word) => word.toLowerCase().includes(tag.toLowerCase())).sort();
  const wanted = [...expected].sort();
  check(JSON.stringify(ours) === JSON.stringify(wanted), `${what}: the run's alert words should be ${JSON.stringify(wanted)}, got ${JSON.stringify(ours)}`, reply);
}

/** Removes every alert word carrying the rule's tag when the rule ends, and reads back that none is left. */
function removeTaggedLater(ctx: RuleContext, who: IdentityName, tag: string): void {
  ctx.cleanup(`remove the alert words tagged ${tag}`, async (c) => {
    const client = c.as(who);
    const listed = (await client.get(PATH)).body?.alert_words;
    const ours = Array.isArray(listed) ? listed.filter((word): word is string => typeof word === 'string' && word.toLowerCase().includes(tag.toLowerCase())) : [];
    if (ours.length === 0) return;
    const reply = await client.delete(PATH, { alert_words: ours });
    if (reply.status !== 200) throw new Error(`alert words ${JSON.stringify(ours)} left: HTTP ${reply.status} ${reply.text.slice(0, 200)}`);
    const after = (await client.get(PATH)).body?.alert_words;
    const left = Array.isArray(after) ? after.filter((word) => typeof word === 'string' && word.toLowerCase().includes(tag.toLowerCase())) : ['(unreadable)'];
    if (left.length > 0) throw new Error(`alert words left after the restore: ${JSON.stringify(left)}`);
  });
}

interface WordsFixture {
  readonly who: IdentityName;
  readonly client: ApiClient;
  /** A fresh run-tagged stem no alert word of the user contains yet; every word of the rule contains it. */
  readonly tag: string;
}

/**
 * A rule on `who`'s alert words (the rules share them out between identities, each of which has
 * its own request budget), whose words all contain a fresh tag and are removed afterwards.
 */
function wordsRule(header: RuleHeader, who: 'member' | 'moderator', body: (ctx: RuleContext, fixture: WordsFixture) => Promise<void>): Rule {
  return fixtureRule(header, { endpoint: `POST ${PATH}`, writes: true, needs: [who] }, async (ctx) => {
    const tag = ctx.name('alert');
    removeTaggedLater(ctx, who, tag);
    return { who, client: ctx.as(who), tag };
  }, body);
}

const normalised = wordsRule({
  id: 'alert-words/added-normalised',
  title: 'added words are stripped, blank ones dropped and case variants kept once (the last new spelling; an existing spelling stays), as the answer, GET /users/me/alert_words and the user\'s other words show',
  section: SECTION,
}, 'member', async (ctx, { client, tag }) => {
  const before = wordsOf(await client.get(PATH)).filter((word) => !word.includes(tag));
  const first = `${tag}-first`;
  const second = `${tag}-second`;
  const added = await client.post(PATH, { alert_words: [`  ${first} `, second, second.toUpperCase(), '', '   '] });
  expectTagged(wordsOf(added), tag, [first, second.toUpperCase()], 'answer to the first add', added);
  const again = await client.post(PATH, { alert_words: [first.toUpperCase(), ` ${second} `] });
  expectTagged(wordsOf(again), tag, [first, second.toUpperCase()], 'answer to adding existing words in other spellings', again);
  const listed = await client.get(PATH);
  const words = wordsOf(listed);
  expectTagged(words, tag, [first, second.toUpperCase()], 'GET /users/me/alert_words', listed);
  const lost = before.filter((word) => !words.includes(word));
  check(lost.length === 0, `the user's other alert words were dropped: ${JSON.stringify(lost)}`, listed);
});

const removal = wordsRule({
  id: 'alert-words/removed-without-regard-to-case',
  title: 'DELETE /users/me/alert_words removes a word given in another case and ignores words that are not there, answering the remaining list',
  endpoint: `DELETE ${PATH}`,
  section: SECTION,
}, 'member', async (ctx, { client, tag }) => {
  const keep = `${tag}-keep`;
  const drop = `${tag}-drop`;
  expectTagged(wordsOf(await client.post(PATH, { alert_words: [keep, drop] })), tag, [keep, drop], 'answer to the add');
  const removed = await client.delete(PATH, { alert_words: [drop.toUpperCase(), `${tag}-never-added`] });
  expectTagged(wordsOf(removed), tag, [keep], 'answer to the removal', removed);
  expectTagged(wordsOf(await client.get(PATH)), tag, [keep], 'GET after the removal');
});

/** A word of exactly `length` code points containing `tag` (an astral emoji and accents after it). */
const wordOfLength = (tag: string, length: number): string => {
  const chars = [...`${tag}-`];
  const filler = ['😀', 'é', 'z'];
  for (let i = 0; chars.length < length; i++) chars.push(filler[i % filler.length]!);
  return chars.slice(0, length).join('');
};

const limits = wordsRule({
  id: 'alert-words/length-limit',
  title: 'an alert word of 100 characters is accepted; 101 characters answer 400 BAD_REQUEST and add nothing of the request; alert_words that is not a JSON list of strings answers 400 BAD_REQUEST',
  section: SECTION,
}, 'moderator', async (ctx, { client, tag }) => {
  const longest = wordOfLength(tag, MAX_WORD_LENGTH);
  expectTagged(wordsOf(await client.post(PATH, { alert_words: [longest] })), tag, [longest], 'answer to adding a 100-character word');
  expectError(await client.post(PATH, { alert_words: [`${tag}-ok`, wordOfLength(tag, MAX_WORD_LENGTH + 1)] }), { status: 400, code: 'BAD_REQUEST' });
  for (const wire of ['not json', '{"word": 1}', '[1]', `"${tag}"`]) expectError(await client.post(PATH, [['alert_words', wire]]), { status: 400, code: 'BAD_REQUEST' });
  expectTagged(wordsOf(await client.get(PATH)), tag, [longest], 'GET after the refused requests');
});

const isWordsEvent = (event: { type?: unknown }): boolean => event.type === 'alert_words';
/** An `alert_words` event listing `word` (a queue may first get late events of earlier changes). */
const listing = (word: string) => (event: { type?: unknown; alert_words?: unknown }): boolean =>
  isWordsEvent(event) && Array.isArray(event.alert_words) && event.alert_words.includes(word);

const events = wordsRule({
  id: 'alert-words/events-and-register',
  title: 'each add and removal sends the user an alert_words event carrying the whole new list, and POST /register alert_words agrees',
  endpoint: `POST, DELETE ${PATH}`,
  section: `${SECTION}; api/get-events#alert_words`,
}, 'moderator', async (ctx, { who, client, tag }) => {
  const stream = await openStreamAs(ctx, who, ['alert_words']);
  const initial = expectShape(stream.state, listShape, 'register alert_words').alert_words;
  expectTagged(initial, tag, [], 'register alert_words before the rule');
  const word = `${tag}-event`;
  const added = wordsOf(await client.post(PATH, { alert_words: [word] }));
  const addEvent = (await stream.next(listing(word), 'alert_words event after the add')).event;
  const afterAdd = expectShape(addEvent, listShape, 'alert_words event').alert_words;
  check(JSON.stringify([...afterAdd].sort()) === JSON.stringify([...added].sort()), `the event's list ${JSON.stringify(afterAdd)} differs from the answer ${JSON.stringify(added)}`);
  expectTagged(afterAdd, tag, [word], 'alert_words event after the add');
  await client.delete(PATH, { alert_words: [word] });
  const removeEvent = (await stream.next(isWordsEvent, 'alert_words event after the removal')).event;
  expectTagged(expectShape(removeEvent, listShape, 'alert_words event').alert_words, tag, [], 'alert_words event after the removal');
  const reply = await client.post('/register', { fetch_event_types: ['alert_words'], event_types: ['alert_words'] });
  const state = expectShape(expectSuccess(reply), listShape, 'register', reply);
  if (typeof reply.body?.queue_id === 'string') await client.delete('/events', { queue_id: reply.body.queue_id });
  expectTagged(state.alert_words, tag, [], 'register alert_words after the removal', reply);
  if (state.alert_words.length !== initial.length) fail(`register alert_words has ${state.alert_words.length} words after the rule, ${initial.length} before`, reply);
});

const noCredentials = credentialsRequired({
  id: 'alert-words/requires-credentials',
  endpoint: `GET, POST, DELETE ${PATH}`,
  section: SECTION,
  requests: [['GET', PATH], ['POST', PATH, { alert_words: ['x'] }], ['DELETE', PATH, { alert_words: ['x'] }]],
});

export const rules: readonly Rule[] = [normalised, removal, limits, events, noCredentials];
