/**
 * Puts back what personal sequences changed: settings and statuses (what others see, or a
 * toggle) at the start of the next sequence, whose events check it; when the rule ends also the
 * lists later sequences act on: added alert words removed, mutes lifted, drafts and snippets
 * deleted, topic policies back to inherit.
 */
import type { ApiClient } from '../../client/api-client.js';
import type { IdentityName } from '../../credentials/types.js';
import { outcome } from './perform.js';
import type { PersonalFixture } from './personal-model.js';

export async function restorePersonal(as: (who: IdentityName) => ApiClient, fixture: PersonalFixture, final: boolean): Promise<string[]> {
  const lines: string[] = [];
  for (const [who, changed] of fixture.changedSettings) {
    const before = fixture.settings.get(who) ?? {};
    const back = [...changed].filter(([name, value]) => value !== (before[name] === true)).map(([name]) => [name, before[name] === true] as const);
    if (back.length > 0) lines.push(outcome(`restore: ${who} sets ${back.map(([name]) => name).join(', ')} back`, await as(who).patch('/settings', back)));
  }
  fixture.changedSettings.clear();
  for (const who of fixture.statusChanged) {
    const before = fixture.statuses.get(who) ?? {};
    const params = {
      status_text: typeof before.status_text === 'string' ? before.status_text : '',
      emoji_name: typeof before.emoji_name === 'string' ? before.emoji_name : '',
      ...(typeof before.emoji_code === 'string' ? { emoji_code: before.emoji_code, reaction_type: before.reaction_type } : {}),
    };
    lines.push(outcome(`restore: ${who} sets their status back`, await as(who).post('/users/me/status', params)));
  }
  fixture.statusChanged.clear();
  if (!final) return lines;
  for (const [who, words] of fixture.alertWords) {
    if (words.size > 0) lines.push(outcome(`restore: ${who} removes alert words ${[...words].join(', ')}`, await as(who).delete('/users/me/alert_words', { alert_words: [...words] })));
  }
  fixture.alertWords.clear();
  for (const [who, mutes] of fixture.mutes) {
    for (const whom of mutes) lines.push(outcome(`restore: ${who} unmutes ${whom}`, await as(who).delete(`/users/me/muted_users/${fixture.userIds.get(whom) ?? 0}`)));
  }
  fixture.mutes.clear();
  for (const [who, ids] of fixture.drafts) for (const id of ids) lines.push(outcome(`restore: ${who} deletes draft ${id}`, await as(who).delete(`/drafts/${id}`)));
  fixture.drafts.clear();
  for (const [who, ids] of fixture.snippets) for (const id of ids) lines.push(outcome(`restore: ${who} deletes saved snippet ${id}`, await as(who).delete(`/saved_snippets/${id}`)));
  fixture.snippets.clear();
  for (const [who, topics] of fixture.topics) {
    for (const topic of topics) {
      lines.push(outcome(`restore: ${who} sets topic ${topic} back to inherit`, await as(who).post('/user_topics', { stream_id: fixture.channel.id, topic, visibility_policy: 0 })));
    }
  }
  fixture.topics.clear();
  return lines;
}
