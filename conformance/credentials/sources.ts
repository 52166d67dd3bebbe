/**
 * Explicit credentials: `--email`/`--api-key` pairs, zuliprc files, and the environment
 * (`ZULIP_EMAIL`, `ZULIP_API_KEY`, `ZULIP_SITE`, as python-zulip-api reads them).
 */
import type { Target } from '../targets/target.js';
import { readZuliprc } from './zuliprc.js';
import type { Credential } from './types.js';

export interface CredentialOptions {
  /** Pairs from `--email E --api-key K` (repeatable). */
  readonly pairs?: ReadonlyArray<{ readonly email: string; readonly apiKey: string }>;
  /** zuliprc files (`--config-file`, repeatable). */
  readonly configFiles?: readonly string[];
  /** Environment to read `ZULIP_*` from; only used for URL targets. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Fill the missing roles through the development login endpoints when available (default true). */
  readonly bootstrap?: boolean;
}

/** `https://chat.example.com/` and `chat.example.com` name the same site. */
export function sameSite(site: string, baseUrl: string): boolean {
  const normalize = (value: string) => {
    const withScheme = /^https?:\/\//.test(value) ? value : `https://${value}`;
    try {
      const url = new URL(withScheme);
      return `${url.host}${url.pathname.replace(/\/+$/, '')}`.toLowerCase();
    } catch {
      return value.toLowerCase();
    }
  };
  return normalize(site) === normalize(baseUrl);
}

export interface CollectedCredentials {
  readonly credentials: Credential[];
  readonly warnings: string[];
}

/** The explicit credentials that apply to this target, in order: flags, files, environment. */
export function collectCredentials(options: CredentialOptions, target: Pick<Target, 'kind' | 'baseUrl'>): CollectedCredentials {
  const credentials: Credential[] = [];
  const warnings: string[] = [];
  for (const pair of options.pairs ?? []) credentials.push({ email: pair.email, apiKey: pair.apiKey, source: 'flags' });
  for (const file of options.configFiles ?? []) {
    const credential = readZuliprc(file);
    if (credential.site && !sameSite(credential.site, target.baseUrl)) {
      warnings.push(`ignoring ${file}: its site ${credential.site} is not the target ${target.baseUrl}`);
    } else {
      credentials.push(credential);
    }
  }
  const env = options.env ?? {};
  const email = env.ZULIP_EMAIL;
  const apiKey = env.ZULIP_API_KEY;
  // The environment describes some real server; never send those keys to the embedded one.
  if (email && apiKey && target.kind === 'url') {
    const site = env.ZULIP_SITE;
    if (site && !sameSite(site, target.baseUrl)) warnings.push(`ignoring ZULIP_EMAIL/ZULIP_API_KEY: ZULIP_SITE ${site} is not the target ${target.baseUrl}`);
    else credentials.push({ email, apiKey, source: 'env', ...(site ? { site } : {}) });
  }
  return { credentials, warnings };
}
