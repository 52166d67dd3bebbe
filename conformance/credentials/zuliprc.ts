/**
 * zuliprc files as python-zulip-api reads them: INI, section `[api]` with `email`, `key` and
 * `site` (`key = value` or `key: value`; `#` and `;` start comments).
 */
import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import type { Credential } from './types.js';

/** Sections of an INI text as maps of lower-cased keys to values. */
export function parseIni(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let current: Map<string, string> | undefined;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header?.[1] !== undefined) {
      current = new Map();
      sections.set(header[1].trim(), current);
      continue;
    }
    const match = /^([^=:]+)[=:](.*)$/.exec(line);
    if (match?.[1] !== undefined && current) current.set(match[1].trim().toLowerCase(), (match[2] ?? '').trim());
  }
  return sections;
}

/** The `[api]` credential of a zuliprc file. */
export function readZuliprc(path: string): Credential {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--config-file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const api = parseIni(text).get('api');
  const email = api?.get('email');
  const key = api?.get('key');
  if (!email || !key) throw new UsageError(`--config-file ${path}: needs an [api] section with email and key`);
  const site = api?.get('site');
  return { email, apiKey: key, source: 'zuliprc', ...(site ? { site } : {}) };
}
