/**
 * The model-based property of `GET /messages` and `GET /messages/matches_narrow`: random messages
 * in a channel of the rule's own and direct messages among three identities of the run, then
 * random narrows (combinations and negations of the operators a model decides exactly), random
 * anchors and windows, `message_ids` lists and `matches_narrow` calls. Each answer must be what
 * the model of the documented semantics gives (conformance/model/message-narrows.ts and
 * message-window.ts), in order, with the right flags. Every narrow starts with a term naming the
 * rule's channel or one of the reader's direct conversations, so other traffic on a shared
 * server cannot interfere; direct conversations also hold messages of earlier runs, which may
 * only fill the `num_before` side ahead of the rule's own (see `windowOver`'s `olderSlots`).
 * What the model leaves out is listed in message-narrows.ts.
 */
import fc from 'fast-check';
import { fail } from '../../expect/assert.js';
import type { Rule } from '../types.js';
import { queryProblems } from './narrow-model-checks.js';
import { prepareCorpus, sendSpec } from './narrow-model-corpus.js';
import { describeQuery, isSearch, querySpec, resolveQuery } from './narrow-model-queries.js';

/** A word no message of any run holds: letters only, no trailing `s` (stemming leaves it whole). */
const freshWord = (): string => `zq${Math.random().toString(36).replace(/[^a-z]/g, '').slice(0, 8)}x`;

const narrowsMatchModel: Rule = {
  id: 'message-fetch/narrows-and-windows-match-the-model',
  title:
    'for random messages and random narrows (every operator the model decides, negated or not, legacy and object forms), anchors and windows, GET /messages returns exactly the messages of the model in order with the right found_anchor, found_oldest, found_newest, history_limited and anchor; message_ids and matches_narrow return exactly the matching ones',
  endpoint: 'GET /messages',
  section: 'api/get-messages; api/construct-narrow; api/get-messages-matches-narrow',
  writes: true,
  needs: ['admin', 'member', 'second-member'],
  async run(ctx) {
    const corpus = await prepareCorpus(ctx);
    const level = ctx.featureLevel;
    await ctx.property(
      'messages sent x queries',
      [fc.array(sendSpec, { minLength: 1, maxLength: 8 }), fc.array(querySpec, { minLength: 1, maxLength: 4 })],
      async (sends, specs) => {
        for (const spec of sends) await corpus.send(ctx, level, spec);
        const queries = specs.map((spec) => resolveQuery(spec, corpus, level));
        if (queries.some(isSearch)) await corpus.awaitSearchIndex(ctx, level, freshWord());
        const problems: string[] = [];
        for (const query of queries) {
          const found = await queryProblems(ctx, corpus, query);
          if (found.length > 0) problems.push(`${describeQuery(query)}:\n    - ${found.slice(0, 8).join('\n    - ')}`);
        }
        if (problems.length > 0) fail(`the answers differ from the model:\n  ${problems.join('\n  ')}`);
      },
      { maxRuns: 25 },
    );
  },
};

export const rules: readonly Rule[] = [narrowsMatchModel];
