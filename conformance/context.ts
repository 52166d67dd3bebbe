/**
 * Builds the `RuleContext` a rule runs with: per-identity clients sharing the rule's transcript
 * and timeout signal, properties, cleanups, deviations and notes.
 */
import { setMaxListeners } from 'node:events';
import fc from 'fast-check';
import { type CleanupContext, CleanupRegistry } from './cleanup.js';
import { ApiClient, type RateLimitPolicy, UNTIL_ANSWERED } from './client/api-client.js';
import { basicAuthorization } from './client/encode.js';
import { type Exchange, Transcript } from './client/exchange.js';
import type { RateLimitWaits } from './client/rate-limit-waits.js';
import type { IdentityPool } from './credentials/pool.js';
import type { ThrowawayUsers } from './credentials/throwaway.js';
import type { Identity, IdentityName } from './credentials/types.js';
import { deviationById } from './deviations.js';
import { RuleFailure, RuleSkip } from './errors.js';
import { PropertyRunner } from './property.js';
import type { DeviationRecord, ThrowawayUserRecord } from './results.js';
import type { Need, PropertySettings, Rule, RuleContext } from './rules/types.js';
import type { Target, TargetInfo } from './targets/target.js';

/** One wait for a target's rate limit, as progress output shows it. */
export interface RateLimitWait {
  readonly waitMs: number;
  readonly url: string;
  /** Who waits: a rule's own request, one of its cleanups, or the run's (setup, run-level cleanups). */
  readonly during: 'rule' | 'cleanup' | 'run';
  readonly ruleId?: string;
}

/** What every rule of a run shares. */
export interface RunEnvironment {
  readonly target: Target;
  readonly info: TargetInfo;
  readonly pool: IdentityPool;
  readonly runTag: string;
  readonly properties: PropertySettings;
  readonly strictDocs: boolean;
  readonly throwaway: ThrowawayUsers;
  readonly runCleanups: CleanupRegistry;
  /** Longest wait for one answer, in ms. */
  readonly requestTimeoutMs?: number;
  readonly rateLimit?: RateLimitPolicy;
  /** Every client's rate-limit waits, and the clock of every deadline of the run. */
  readonly waits: RateLimitWaits;
  /** Told of each rate-limit wait (progress output). */
  readonly onRateLimitWait?: (wait: RateLimitWait) => void;
  /** Run-wide counter for `ctx.name()`. */
  nextNameNumber(): number;
  /** Fixtures shared by the rules of the run (`ctx.runShared`), by key. */
  readonly shared: Map<string, Promise<unknown>>;
  /** The exchanges that made each shared fixture (and the fixtures it used), for reproductions. */
  readonly sharedSetup: Map<string, readonly Exchange[]>;
}

interface ClientSettings {
  readonly signal: AbortSignal;
  /** Default: the run's policy (`RunOptions.rateLimit`), else the client's own. */
  readonly rateLimit?: RateLimitPolicy;
  readonly onRateLimited?: (waitMs: number, url: string) => void;
}

function newClient(env: RunEnvironment, transcript: Transcript, authorization: string | undefined, settings: ClientSettings): ApiClient {
  const rateLimit = settings.rateLimit ?? env.rateLimit;
  return new ApiClient({
    baseUrl: env.target.baseUrl,
    dispatcher: env.target.dispatcher,
    transcript,
    signal: settings.signal,
    waits: env.waits,
    ...(env.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: env.requestTimeoutMs }),
    ...(authorization === undefined ? {} : { authorization }),
    ...(rateLimit ? { rateLimit } : {}),
    ...(settings.onRateLimited ? { onRateLimited: settings.onRateLimited } : {}),
  });
}

/** Where a cleanup context's notes go, and whose cleanups it serves (a rule's, or the run's). */
export interface CleanupNotes {
  readonly note: (message: string) => void;
  /** The rule whose cleanups these are; none for the run's own. */
  readonly ruleId?: string;
}

/**
 * Clients for cleanups: any identity of the run, recording into `transcript`, bounded by `signal`;
 * they wait out every rate-limit answer (`UNTIL_ANSWERED`), so that no restore is abandoned only
 * because of the rate limit.
 */
export function makeCleanupContext(env: RunEnvironment, transcript: Transcript, signal: AbortSignal, notes: CleanupNotes): CleanupContext {
  setMaxListeners(1000, signal);
  const onRateLimited = (waitMs: number, url: string) => {
    const during = notes.ruleId === undefined ? 'run' : 'cleanup';
    if (notes.ruleId !== undefined) notes.note(`cleanup rate limited on ${url}: waited ${Math.round(waitMs / 100) / 10} s`);
    env.onRateLimitWait?.({ waitMs, url, during, ...(notes.ruleId === undefined ? {} : { ruleId: notes.ruleId }) });
  };
  const settings: ClientSettings = { signal, rateLimit: UNTIL_ANSWERED, onRateLimited };
  return {
    note: notes.note,
    as: (who) => {
      const identity = who === 'user' ? env.pool.primary() : env.pool.get(who as IdentityName);
      if (!identity) throw new Error(`cleanup: no identity '${who}'`);
      return newClient(env, transcript, basicAuthorization(identity.email, identity.apiKey), settings);
    },
    anonymous: newClient(env, transcript, undefined, settings),
  };
}

/** One rule's run: its context plus what the runner collects afterwards. */
export class RuleScope {
  readonly transcript = new Transcript();
  readonly cleanups = new CleanupRegistry();
  readonly deviations: DeviationRecord[] = [];
  readonly notes: string[] = [];
  /** Users created for this rule, for reproductions (which create their own). */
  readonly throwawayUsers: ThrowawayUserRecord[] = [];
  /** Exchanges of shared fixtures other rules made and this one used, oldest first, for reproductions. */
  readonly sharedSetup: Exchange[] = [];
  readonly controller = new AbortController();
  readonly ctx: RuleContext;
  /** Numbers and runs the rule's properties; knows which exchanges were sent outside them. */
  properties!: PropertyRunner;

  constructor(
    private readonly env: RunEnvironment,
    readonly rule: Rule,
  ) {
    // Every request listens on the rule's signal until its body closes (on a later tick).
    setMaxListeners(1000, this.controller.signal);
    this.ctx = this.buildContext();
  }

  /** A client on this target recording into the rule's transcript. */
  client(authorization: string | undefined, signal: AbortSignal): ApiClient {
    const onRateLimited = (waitMs: number, url: string) => {
      this.notes.push(`rate limited on ${url}: waited ${Math.round(waitMs / 100) / 10} s`);
      this.env.onRateLimitWait?.({ waitMs, url, during: 'rule', ruleId: this.rule.id });
    };
    return newClient(this.env, this.transcript, authorization, { signal, onRateLimited });
  }

  /** Fresh clients for cleanups (not tied to the rule's timeout). */
  cleanupContext(signal: AbortSignal): CleanupContext {
    return makeCleanupContext(this.env, this.transcript, signal, { note: (message) => void this.notes.push(message), ruleId: this.rule.id });
  }

  private identityFor(who: IdentityName | 'user'): Identity {
    if (!(this.rule.needs ?? []).includes(who as Need)) throw new Error(`rule ${this.rule.id} uses '${who}' without listing it in needs`);
    const identity = who === 'user' ? this.env.pool.primary() : this.env.pool.get(who);
    if (!identity) throw new Error(`no identity '${who}' (the runner should have skipped this rule)`);
    return identity;
  }

  private buildContext(): RuleContext {
    const { env, rule } = this;
    const signal = this.controller.signal;
    const properties = new PropertyRunner(rule.id, env.properties, this.transcript, (message) => this.notes.push(message));
    this.properties = properties;
    const self = this;
    const as = (who: IdentityName | 'user') => {
      const identity = this.identityFor(who);
      return this.client(basicAuthorization(identity.email, identity.apiKey), signal);
    };
    return {
      rule,
      target: env.info,
      featureLevel: env.info.featureLevel,
      runTag: env.runTag,
      properties: env.properties,
      signal,
      strictDocs: env.strictDocs,
      as,
      reader: (fallback) => {
        const present = (rule.readers ?? []).map((who) => env.pool.get(who)).find((identity) => identity !== undefined);
        return present ? this.client(basicAuthorization(present.email, present.apiKey), signal) : as(fallback);
      },
      identity: (who) => this.identityFor(who),
      identities: env.pool.identities,
      anonymous: this.client(undefined, signal),
      async throwawayUser() {
        if (!(rule.needs ?? []).includes('throwaway-user')) throw new Error(`rule ${rule.id} must list 'throwaway-user' in needs`);
        const { identity, password } = await env.throwaway.take();
        const admin = env.pool.get('admin');
        self.throwawayUsers.push({ email: identity.email, userId: identity.userId, fullName: identity.fullName, password, createdBy: admin?.email ?? '', createdByApiKey: admin?.apiKey ?? '' });
        return { identity, password, client: self.client(basicAuthorization(identity.email, identity.apiKey), signal) };
      },
      runShared<T>(key: string, create: () => Promise<T>): Promise<T> {
        let made = env.shared.get(key) as Promise<T> | undefined;
        if (!made) {
          const mark = self.transcript.mark();
          made = create();
          env.shared.set(key, made);
          made.then(
            () => void env.sharedSetup.set(key, [...self.sharedSetup, ...self.transcript.since(mark)]),
            () => env.shared.delete(key),
          );
          return made;
        }
        return made.then((value) => {
          for (const exchange of env.sharedSetup.get(key) ?? []) if (!self.sharedSetup.includes(exchange)) self.sharedSetup.push(exchange);
          return value;
        });
      },
      name: (label) => `${env.runTag}-${label}-${env.nextNameNumber()}`,
      property: (name, arbitraries, predicate, options) =>
        properties.run(name, fc.asyncProperty(...(arbitraries as [fc.Arbitrary<unknown>]), predicate as (...args: unknown[]) => Promise<boolean | void>), options),
      assert: (name, property, options) => properties.run(name, property, options),
      cleanup: (label, fn, options) => (options?.scope === 'run' ? env.runCleanups : this.cleanups).add(label, fn),
      deviation: (id, detail) => {
        const entry = deviationById(id);
        // Properties observe the same deviation on every run: keep one record per id and detail.
        if (!this.deviations.some((known) => known.id === id && known.detail === detail)) {
          this.deviations.push({ id, section: entry.section, detail, documented: entry.documented, real: entry.real });
        }
        if (env.strictDocs && entry.reference === 'description') {
          throw new RuleFailure(`known deviation '${id}' observed (--strict-docs): ${detail}\n  documented (${entry.section}): ${entry.documented}\n  real server: ${entry.real}`);
        }
      },
      note: (message) => void this.notes.push(message),
      skip: (reason, missing) => {
        throw new RuleSkip(reason, missing);
      },
    };
  }
}
