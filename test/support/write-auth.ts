/**
 * Authorization tables for every write the route table serves (test/support/write-auth-*.ts):
 * per route, the requests that name each kind of target (the caller's own, another user's, a
 * private channel the caller is not in, a deactivated one), and which roles the real server
 * refuses on which target, with the status and code it answers. `checkRefusals` runs a table
 * against a scene: each refusal is asserted, and the world (its whole snapshot) must be the
 * same after the refused request as before it.
 */
import type { Test } from 'tap';
import { snapshotWorld } from '../../server/index.js';
import type { Params } from './harness.js';
import { ROLES, type Role, type Scene } from './write-scene.js';

export interface Call {
  /** The path with its parameters filled in, under /api/v1. */
  readonly path: string;
  readonly params?: Params;
}

/** A request naming one target, built for the calling role. */
export type Target = (scene: Scene, as: Role) => Call;

export interface Answer {
  readonly status: number;
  readonly code: string;
  readonly msg: string | RegExp;
}

export interface Refusal {
  readonly as: readonly Role[];
  /** A key of the rule's targets. */
  readonly target: string;
  readonly answer: Answer;
}

export interface WriteRule {
  /** `METHOD path` exactly as in the route table (server/app/routes.ts). */
  readonly route: string;
  readonly targets: Readonly<Record<string, Target>>;
  readonly refused: readonly Refusal[];
  /** When the real server refuses no role anything here: why. */
  readonly open?: string;
}

const rank: Readonly<Record<Role, number>> = { owner: 0, administrator: 1, moderator: 2, member: 3, bot: 3, guest: 4 };

/** The roles strictly below `role` (bots count as members, which the development bot is). */
export const below = (role: Role): Role[] => ROLES.filter((candidate) => rank[candidate] > rank[role]);
export const ALL: readonly Role[] = ROLES;
export const HUMANS: readonly Role[] = ROLES.filter((role) => role !== 'bot');

export const refuse = (as: Role | readonly Role[], target: string, answer: Answer): Refusal => ({ as: typeof as === 'string' ? [as] : as, target, answer });

/** The same refusal on several targets. */
export const refuseOn = (as: Role | readonly Role[], targets: readonly string[], answer: Answer): Refusal[] => targets.map((target) => refuse(as, target, answer));

export const bad = (msg: string | RegExp, status = 400): Answer => ({ status, code: 'BAD_REQUEST', msg });
export const MUST_BE_ADMIN: Answer = { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' };
export const MUST_BE_OWNER: Answer = { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' };
export const INSUFFICIENT = bad('Insufficient permission');
export const NOT_FOR_BOTS = bad('This endpoint does not accept bot requests.');
export const NOT_FOR_GUESTS = bad('Not allowed for guest users');

/** `METHOD path` split. */
export function methodOf(rule: WriteRule): string {
  return rule.route.slice(0, rule.route.indexOf(' '));
}

const worldText = (scene: Scene): string => JSON.stringify(snapshotWorld(scene.s.world));

/** Asserts every refusal of `rules` and that each left the world as it was. */
export async function checkRefusals(t: Test, rules: readonly WriteRule[], scene: Scene): Promise<void> {
  let before = worldText(scene);
  for (const rule of rules) {
    for (const refusal of rule.refused) {
      const target = rule.targets[refusal.target];
      if (!target) throw new Error(`${rule.route}: no target ${refusal.target}`);
      for (const role of refusal.as) {
        const call = target(scene, role);
        const reply = await scene.as(role).call(methodOf(rule), call.path, call.params ?? {});
        const title = `${rule.route} as ${role} on ${refusal.target}`;
        t.same({ status: reply.status, code: reply.body?.code }, { status: refusal.answer.status, code: refusal.answer.code }, `${title}: ${reply.body?.msg ?? reply.text}`);
        t.match(reply.body?.msg, refusal.answer.msg, `${title}: the message`);
        const after = worldText(scene);
        t.ok(after === before, `${title}: nothing changed`);
        before = after;
      }
    }
  }
}

/** Routes served without credentials: nothing of a user's to authorize. */
export const UNAUTHENTICATED_RULES: readonly WriteRule[] = [
  'POST /fetch_api_key',
  'POST /dev_fetch_api_key',
  'POST /dev_list_users',
  'PATCH /dev_list_users',
  'PUT /dev_list_users',
  'DELETE /dev_list_users',
].map((route) => ({ route, targets: {}, refused: [], open: 'served without credentials (a login, or a development listing); tested in auth.test.ts and dev-server.test.ts' }));
