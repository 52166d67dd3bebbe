/**
 * The personal family: each identity's settings, status, alert words, muted users, drafts, saved
 * snippets and topic visibility policies, each put back at the end of the sequence. Observers
 * compare `user_settings`, `user_status`, `alert_words`, `muted_users`, `drafts`,
 * `saved_snippets` and `user_topics`.
 */
import fc from 'fast-check';
import type { IdentityName } from '../../credentials/types.js';
import { runChannel } from '../../rules/support/message-fixtures.js';
import { objectField, registerState } from '../../rules/support/state-fetch.js';
import type { RuleContext } from '../../rules/types.js';
import { type Family, fetching, MAX_SEQUENCES } from '../family.js';
import type { State } from '../types.js';
import { type PersonalAction, performPersonal } from './personal-actions.js';
import { type PersonalFixture, SETTINGS, STATUS_EMOJI, STATUS_TEXTS, TOPICS } from './personal-model.js';
import { restorePersonal } from './personal-restore.js';

const OBSERVERS: readonly IdentityName[] = ['member', 'second-member', 'moderator', 'guest'];
/** Levels: saved snippets (297) and their edits (368), topic policies (170) and following (219). */
const LEVEL = { SNIPPETS: 297, SNIPPET_EDIT: 368, USER_TOPICS: 170, FOLLOWED: 219 } as const;

function actionKinds(level: number): Array<fc.WeightedArbitrary<PersonalAction>> {
  const by = fc.constantFrom(...OBSERVERS);
  const n = fc.nat({ max: 2 });
  const choices: Array<fc.WeightedArbitrary<PersonalAction>> = [
    { weight: 2, arbitrary: fc.record({ do: fc.constant('setting' as const), by, setting: fc.nat({ max: SETTINGS.length - 1 }) }) },
    {
      weight: 2,
      arbitrary: fc.record({ do: fc.constant('status' as const), by, text: fc.option(fc.nat({ max: STATUS_TEXTS.length - 1 }), { nil: null }), emoji: fc.option(fc.nat({ max: STATUS_EMOJI.length - 1 }), { nil: null }) }),
    },
    { weight: 2, arbitrary: fc.record({ do: fc.constant('alert-word' as const), by, word: n }) },
    { weight: 2, arbitrary: fc.record({ do: fc.constant('mute' as const), by, whom: fc.constantFrom(...OBSERVERS) }) },
    // Edits twice as often: drafts and snippets stay until the rule ends, so later sequences find some.
    { weight: 2, arbitrary: fc.record({ do: fc.constant('draft' as const), by, op: fc.constantFrom('create' as const, 'edit' as const, 'edit' as const, 'delete' as const), index: n }) },
  ];
  if (level >= LEVEL.SNIPPETS) {
    const ops = level >= LEVEL.SNIPPET_EDIT ? (['create', 'edit', 'edit', 'delete'] as const) : (['create', 'delete'] as const);
    choices.push({ weight: 2, arbitrary: fc.record({ do: fc.constant('snippet' as const), by, op: fc.constantFrom(...ops), index: n }) });
  }
  if (level >= LEVEL.USER_TOPICS) {
    const policies = level >= LEVEL.FOLLOWED ? [0, 1, 2, 3] : [0, 1, 2];
    choices.push({ weight: 2, arbitrary: fc.record({ do: fc.constant('user-topic' as const), by, topic: fc.nat({ max: TOPICS.length - 1 }), policy: fc.constantFrom(...policies) }) });
  }
  return choices;
}

async function setup(ctx: RuleContext): Promise<PersonalFixture> {
  const channel = await runChannel(ctx);
  const settings = new Map<IdentityName, State>();
  for (const who of OBSERVERS) {
    const { body } = await registerState(ctx.as(who), ['user_settings'], { client_capabilities: { user_settings_object: true } });
    const all = objectField(body, 'user_settings') ?? {};
    settings.set(who, Object.fromEntries(SETTINGS.map((name) => [name, all[name]])));
  }
  const { body } = await registerState(ctx.as('member'), ['user_status']);
  const all = (objectField(body, 'user_status') ?? {}) as Record<string, State>;
  const statuses = new Map(OBSERVERS.map((who) => [who, all[String(ctx.identity(who).userId)] ?? {}] as const));
  return {
    observers: OBSERVERS,
    channel,
    settings,
    statuses,
    changedSettings: new Map(),
    statusChanged: new Set(),
    alertWords: new Map(),
    mutes: new Map(),
    drafts: new Map(),
    snippets: new Map(),
    topics: new Map(),
    userIds: new Map(OBSERVERS.map((who) => [who, ctx.identity(who).userId] as const)),
    edits: 0,
    wordPrefix: `${ctx.runTag}-word`,
  };
}

const TYPES = ['user_settings', 'user_status', 'alert_words', 'muted_users', 'drafts', 'saved_snippets', 'user_topic'];

export const personalFamily: Family<PersonalFixture, PersonalAction> = {
  id: 'event-convergence/personal',
  title: "register plus the events of each identity's settings, status, alert words, mutes, drafts, saved snippets and topic policies gives every observer the state a fresh register gives",
  section: 'api/register-queue, api/get-events (user_settings, user_status, alert_words, muted_users, drafts, saved_snippets, user_topic)',
  levels: { min: 89 },
  needs: ['admin', ...OBSERVERS],
  observers: OBSERVERS,
  ...fetching(TYPES),
  maxRuns: MAX_SEQUENCES,
  setup,
  kinds: (_fixture, level) => actionKinds(level),
  perform: performPersonal,
  restore: restorePersonal,
  owned: (ctx, fixture) => ({ channelIds: [fixture.channel.id], groupIds: [], userIds: OBSERVERS.map((o) => ctx.identity(o).userId), messageIds: [] }),
};
