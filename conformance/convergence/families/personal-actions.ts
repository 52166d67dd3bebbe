/** Performing the personal family's actions, each recording what the restore must undo. */
import type { IdentityName } from '../../credentials/types.js';
import type { RuleContext } from '../../rules/types.js';
import { answeredId, outcome } from './perform.js';
import { entryOf, type PersonalFixture, SETTINGS, STATUS_EMOJI, STATUS_TEXTS, TOPICS } from './personal-model.js';

export type PersonalAction =
  | { readonly do: 'setting'; readonly by: IdentityName; readonly setting: number }
  | { readonly do: 'status'; readonly by: IdentityName; readonly text: number | null; readonly emoji: number | null }
  | { readonly do: 'alert-word'; readonly by: IdentityName; readonly word: number }
  | { readonly do: 'mute'; readonly by: IdentityName; readonly whom: IdentityName }
  | { readonly do: 'draft'; readonly by: IdentityName; readonly op: 'create' | 'edit' | 'delete'; readonly index: number }
  | { readonly do: 'snippet'; readonly by: IdentityName; readonly op: 'create' | 'edit' | 'delete'; readonly index: number }
  | { readonly do: 'user-topic'; readonly by: IdentityName; readonly topic: number; readonly policy: number };

async function setting(ctx: RuleContext, fixture: PersonalFixture, by: IdentityName, index: number): Promise<string> {
  const name = SETTINGS[index] as string;
  const changed = entryOf(fixture.changedSettings, by, () => new Map<string, boolean>());
  const current = changed.get(name) ?? fixture.settings.get(by)?.[name] === true;
  const reply = await ctx.as(by).patch('/settings', [[name, !current]]);
  if (reply.status === 200) changed.set(name, !current);
  return outcome(`${by} sets ${name} to ${String(!current)}`, reply);
}

async function status(ctx: RuleContext, fixture: PersonalFixture, action: Extract<PersonalAction, { do: 'status' }>): Promise<string> {
  // Text and emoji are always sent together (an empty value clears its part), as clients do.
  const text = action.text === null ? '' : (STATUS_TEXTS[action.text] as string);
  const emoji = action.emoji === null ? '' : (STATUS_EMOJI[action.emoji] as string);
  const reply = await ctx.as(action.by).post('/users/me/status', { status_text: text, emoji_name: emoji });
  if (reply.status === 200) fixture.statusChanged.add(action.by);
  return outcome(`${action.by} sets status ${JSON.stringify(text)} ${emoji === '' ? 'without emoji' : `:${emoji}:`}`, reply);
}

async function alertWord(ctx: RuleContext, fixture: PersonalFixture, by: IdentityName, index: number): Promise<string> {
  const word = `${fixture.wordPrefix}${index}`;
  const words = entryOf(fixture.alertWords, by, () => new Set<string>());
  const remove = words.has(word);
  const client = ctx.as(by);
  const reply = remove ? await client.delete('/users/me/alert_words', { alert_words: [word] }) : await client.post('/users/me/alert_words', { alert_words: [word] });
  if (reply.status === 200) (remove ? words.delete(word) : words.add(word));
  return outcome(`${by} ${remove ? 'removes' : 'adds'} alert word ${word}`, reply);
}

async function mute(ctx: RuleContext, fixture: PersonalFixture, by: IdentityName, whom: IdentityName): Promise<string> {
  if (by === whom) return `${by} mutes: skipped, not themselves`;
  const mutes = entryOf(fixture.mutes, by, () => new Set<IdentityName>());
  const unmute = mutes.has(whom);
  const path = `/users/me/muted_users/${ctx.identity(whom).userId}`;
  const reply = unmute ? await ctx.as(by).delete(path) : await ctx.as(by).post(path);
  if (reply.status === 200) (unmute ? mutes.delete(whom) : mutes.add(whom));
  return outcome(`${by} ${unmute ? 'unmutes' : 'mutes'} ${whom}`, reply);
}

/** An existing draft or snippet (any identity's, newest first, by index), with its owner. */
function existing(lists: Map<IdentityName, number[]>, index: number): { owner: IdentityName; id: number } | undefined {
  const all = [...lists].flatMap(([owner, ids]) => ids.map((id) => ({ owner, id }))).sort((a, b) => b.id - a.id);
  return all.length === 0 ? undefined : all[index % all.length];
}

/** Creates a draft as `by`, or edits or deletes an existing one as its owner (creating when there is none). */
async function draft(ctx: RuleContext, fixture: PersonalFixture, action: Extract<PersonalAction, { do: 'draft' }>): Promise<string> {
  // Every draft body is new (an edit always changes the content).
  const body = (n: number) => ({ type: 'stream', to: [fixture.channel.id], topic: TOPICS[n % TOPICS.length], content: `convergence draft ${n} (${fixture.edits++})` });
  const target = action.op === 'create' ? undefined : existing(fixture.drafts, action.index);
  if (!target) {
    const reply = await ctx.as(action.by).post('/drafts', { drafts: [body(action.index)] });
    const id = reply.status === 200 && Array.isArray(reply.body?.ids) ? (reply.body.ids[0] as number) : undefined;
    if (id !== undefined) entryOf(fixture.drafts, action.by, () => [] as number[]).push(id);
    return outcome(`${action.by} creates draft ${id ?? '?'}`, reply);
  }
  const client = ctx.as(target.owner);
  if (action.op === 'edit') return outcome(`${target.owner} edits draft ${target.id}`, await client.patch(`/drafts/${target.id}`, { draft: body(action.index) }));
  const reply = await client.delete(`/drafts/${target.id}`);
  const ids = fixture.drafts.get(target.owner) ?? [];
  if (reply.status === 200) ids.splice(ids.indexOf(target.id), 1);
  return outcome(`${target.owner} deletes draft ${target.id}`, reply);
}

/** Creates a saved snippet as `by`, or edits or deletes an existing one as its owner. */
async function snippet(ctx: RuleContext, fixture: PersonalFixture, action: Extract<PersonalAction, { do: 'snippet' }>): Promise<string> {
  const target = action.op === 'create' ? undefined : existing(fixture.snippets, action.index);
  if (!target) {
    const reply = await ctx.as(action.by).post('/saved_snippets', { title: `convergence ${action.index}`, content: `snippet ${action.index}` });
    const id = answeredId(reply, 'saved_snippet_id');
    if (id !== undefined) entryOf(fixture.snippets, action.by, () => [] as number[]).push(id);
    return outcome(`${action.by} creates saved snippet ${id ?? '?'}`, reply);
  }
  const client = ctx.as(target.owner);
  if (action.op === 'edit') return outcome(`${target.owner} edits saved snippet ${target.id}`, await client.patch(`/saved_snippets/${target.id}`, { title: `convergence edited ${fixture.edits++}` }));
  const reply = await client.delete(`/saved_snippets/${target.id}`);
  const ids = fixture.snippets.get(target.owner) ?? [];
  if (reply.status === 200) ids.splice(ids.indexOf(target.id), 1);
  return outcome(`${target.owner} deletes saved snippet ${target.id}`, reply);
}

async function userTopic(ctx: RuleContext, fixture: PersonalFixture, action: Extract<PersonalAction, { do: 'user-topic' }>): Promise<string> {
  const topic = TOPICS[action.topic] as string;
  const reply = await ctx.as(action.by).post('/user_topics', { stream_id: fixture.channel.id, topic, visibility_policy: action.policy });
  if (reply.status === 200) {
    const topics = entryOf(fixture.topics, action.by, () => new Set<string>());
    if (action.policy === 0) topics.delete(topic);
    else topics.add(topic);
  }
  return outcome(`${action.by} sets the visibility policy of topic ${topic} to ${action.policy}`, reply);
}

export function performPersonal(ctx: RuleContext, fixture: PersonalFixture, action: PersonalAction): Promise<string> {
  switch (action.do) {
    case 'setting':
      return setting(ctx, fixture, action.by, action.setting);
    case 'status':
      return status(ctx, fixture, action);
    case 'alert-word':
      return alertWord(ctx, fixture, action.by, action.word);
    case 'mute':
      return mute(ctx, fixture, action.by, action.whom);
    case 'draft':
      return draft(ctx, fixture, action);
    case 'snippet':
      return snippet(ctx, fixture, action);
    case 'user-topic':
      return userTopic(ctx, fixture, action);
  }
}
