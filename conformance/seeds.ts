/** Seeds and run tags: one printed run seed, a derived seed per property, a random run tag. */
import { randomBytes, randomInt } from 'node:crypto';
import { UsageError } from './errors.js';

/** A random run seed (positive 31-bit integer, easy to type). */
export function randomSeed(): number {
  return randomInt(1, 2 ** 31 - 1);
}

/** FNV-1a over the text, as a signed 32-bit integer (what fast-check takes as a seed). */
export function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

/**
 * The seed of one property: independent of which other rules run (sharding and --only do not
 * change it), different for every rule and property.
 */
export function propertySeed(runSeed: number, ruleId: string, index: number): number {
  return hash32(`${runSeed}|${ruleId}|${index}`);
}

/**
 * A unique prefix for every name the run creates (`conf-k3x9q2`): lower-case letters and digits,
 * valid in emails, channel and group names; lets a person find leftovers on a shared server.
 */
export function newRunTag(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(6);
  let tag = '';
  for (const byte of bytes) tag += alphabet[byte % alphabet.length];
  return `conf-${tag}`;
}

/** `--replay SEED:PATH`, PATH being `[PROPERTY/]FASTCHECK_PATH` (property index 1-based, default 1). */
export interface ReplayToken {
  readonly seed: number;
  readonly propertyIndex: number;
  readonly path: string;
}

export function parseReplay(token: string): ReplayToken {
  const match = /^(-?\d+):(?:(\d+)\/)?(\d+(?::\d+)*)$/.exec(token.trim());
  if (!match?.[1] || !match[3]) throw new UsageError(`--replay: expected SEED:PATH such as 1234:1/5:0:2, got '${token}'`);
  const propertyIndex = match[2] === undefined ? 1 : Number(match[2]);
  if (propertyIndex < 1) throw new UsageError('--replay: the property index starts at 1');
  return { seed: Number(match[1]), propertyIndex, path: match[3] };
}

export function formatReplay(token: ReplayToken): string {
  return `${token.seed}:${token.propertyIndex}/${token.path}`;
}
