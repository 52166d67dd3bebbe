/**
 * The "rejects requests without valid credentials" rule every endpoint gets (section 5.4): a
 * factory, so each resource file declares its own rule with its own id, endpoint and levels.
 */
import fc from 'fast-check';
import type { Reply } from '../../client/api-client.js';
import { check, expectError } from '../../expect/assert.js';
import type { FeatureRange, Rule } from '../types.js';

/** 401 `UNAUTHORIZED` with a Basic challenge (section 5.4). */
export function expectUnauthorized(reply: Reply): void {
  expectError(reply, { status: 401, code: 'UNAUTHORIZED' });
  check(/^basic/i.test(reply.headers['www-authenticate'] ?? ''), '401 must carry WWW-Authenticate: Basic ...', reply);
}

export interface CredentialsRuleSpec {
  readonly id: string;
  readonly endpoint: string;
  readonly section: string;
  readonly levels?: FeatureRange;
  /** Requests that need a user: method, path and parameters (anything valid or not). */
  readonly requests: ReadonlyArray<readonly [method: string, path: string, params?: Readonly<Record<string, unknown>>]>;
}

/** 401 `UNAUTHORIZED` with a Basic challenge, for requests without credentials and with a wrong key. */
export function credentialsRequired(spec: CredentialsRuleSpec): Rule {
  return {
    id: spec.id,
    title: `${spec.endpoint} without valid credentials (none, or a wrong key) answers 401 UNAUTHORIZED with a Basic challenge`,
    endpoint: spec.endpoint,
    section: `${spec.section}; 5.4`,
    ...(spec.levels ? { levels: spec.levels } : {}),
    writes: false,
    needs: ['user'],
    async run(ctx) {
      const me = ctx.identity('user');
      const wrongKey = ctx.anonymous.withCredentials(me.email, `${me.apiKey.slice(0, -1)}${me.apiKey.endsWith('x') ? 'y' : 'x'}`);
      await ctx.property('no credentials or a wrong key', [fc.constantFrom(...spec.requests), fc.boolean()], async ([method, path, params], withWrongKey) => {
        expectUnauthorized(await (withWrongKey ? wrongKey : ctx.anonymous).call(method, path, params));
      }, { maxRuns: Math.max(2, spec.requests.length * 2) });
    },
  };
}
