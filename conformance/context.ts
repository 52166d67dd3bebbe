/**
 * Builds the `RuleContext` a rule runs with: per-identity clients sharing the rule's transcript
 * and timeout signal, properties, cleanups, deviations and notes.
 */
import { setMaxListeners } from 'node:events';
import fc from 'fast-check';
import { type CleanupContext, CleanupRegistry } from './cleanup.js';
import { ApiClient, type RateLimitPolicy } from './client/api-client.js';
import { basicAuthorization } from './client/encode.js';
import { type Exchange, Transcript } from './client/exchange.js';
import type { IdentityPool } from './credentials/pool.js';
import type { ThrowawayUsers } from './credentials/throwaway.js';
import type { Identity, IdentityName } from './credentials/types.js';
import { deviationById } from './deviations.js';
import { RuleFailure, RuleSkip } from './errors.js';
import { PropertyRunner } from './property.js';
import type { DeviationRecord, ThrowawayUserRecord } from './results.js';
import type { Need, PropertySettings, Rule, RuleContext } from './rules/types.js';
import type { Target, TargetInfo } from './targets/target.js';

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
  /** Run-wide counter for `ctx.name()`. */
  nextNameNumber(): number;
  /** Fixtures shared by the rules of the run (`ctx.runShared`), by key. */
  readonly shared: Map<string, Promise<unknown>>;
  /** The exchanges that made each shared fixture (and the fixtures it used), for reproductions. */
  readonly sharedSetup: Map<string, readonly Exchange[]>;
  /** Told of every rate-limit wait of any client of the run (progress shows them). */
  readonly onRateLimited?: (waitMs: number, url: string) => void;
}

function newClient(
  env: RunEnvironment,
  transcript: Transcript,
  authorization: string | undefined,
  signal: AbortSignal,
  onRateLimited?: (waitMs: number, url: string) => void,
): ApiClient {
  return new ApiClient({
    baseUrl: env.target.baseUrl,
    dispatcher: env.target.dispatcher,
    transcript,
    signal,
    ...(env.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: env.requestTimeoutMs }),
    ...(authorization === undefined ? {} : { authorization }),
    ...(env.rateLimit ? { rateLimit: env.rateLimit } : {}),
    ...(onRateLimited || env.onRateLimited
      ? {
          onRateLimited: (waitMs: number, url: string) => {
            onRateLimited?.(waitMs, url);
            env.onRateLimited?.(waitMs, url);
          },
        }
      : {}),
  });
}

/** Clients for cleanups: any identity of the run, recording into `transcript`, bounded by `signal`; notes go to `note`. */
export function makeCleanupContext(env: RunEnvironment, transcript: Transcript, signal: AbortSignal, note: (message: string) => void): CleanupContext {
  setMaxListeners(1000, signal);
  return {
    note,
    as: (who) => {
      const identity = who === 'user' ? env.pool.primary() : env.pool.get(who as IdentityName);
      if (!identity) throw new Error(`cleanup: no identity '${who}'`);
      return newClient(env, transcript, basicAuthorization(identity.email, identity.apiKey), signal);
    },
    anonymous: newClient(env, transcript, undefined, signal),
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
  /** Called with each rate-limit wait; the runner moves the rule's deadline by that much. */
  onRateLimitWait: (waitMs: number) => void = () => undefined;

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
    return newClient(this.env, this.transcript, authorization, signal, (ms, url) => {
      this.notes.push(`rate limited on ${url}: waited ${Math.round(ms / 100) / 10} s`);
      this.onRateLimitWait(ms);
    });
  }

  /** Fresh clients for cleanups (not tied to the rule's timeout). */
  cleanupContext(signal: AbortSignal): CleanupContext {
    return makeCleanupContext(this.env, this.transcript, signal, (message) => void this.notes.push(message));
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
