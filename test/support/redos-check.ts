/**
 * The ReDoS check: every regular expression the sources build is run through recheck, a ReDoS
 * analyser (automata theory where the pattern allows it, guided fuzzing otherwise), and anything
 * super-linear must be justified by an allow-list entry saying why it is safe where it runs.
 */
import { checkSync, type Diagnostics, type Parameters } from 'recheck';
import type { FoundRegex } from './regex-sources.js';

/** An expression allowed although it is (or may be) super-linear, or built at run time. */
export interface Justified {
  readonly file: string;
  /** The pattern's source, or for one built at run time the expression as written. */
  readonly pattern: string;
  /** Why it is safe: what bounds its input, or why its input cannot be the bad case. */
  readonly reason: string;
}

/**
 * recheck's settings. Its fastest mode: patterns whose automaton is small (most) are decided by
 * the automaton checker, which is exact and quick, larger ones by fuzzing (the default threshold,
 * 35,000 states, sent long literals through a 3-second automaton build each). The fuzzer's step
 * limits stay, its time limits are lifted, so a verdict does not depend on how loaded the machine
 * is; the whole check has a generous time limit instead.
 */
export const ANALYSIS: Parameters = {
  maxNFASize: 2000,
  incubationTimeout: null,
  attackTimeout: null,
  seedingTimeout: null,
  timeout: 60_000,
};

export type Analyse = (source: string, flags: string) => Diagnostics;

export const analyse: Analyse = (source, flags) => checkSync(source, flags, ANALYSIS);

const where = (regex: FoundRegex): string => `${regex.file}:${regex.line} ${regex.text}`;

function verdict(diagnostics: Diagnostics): string | undefined {
  if (diagnostics.status === 'safe') return undefined;
  if (diagnostics.status === 'vulnerable') {
    return `${diagnostics.complexity.summary}, e.g. on ${diagnostics.attack.pattern.slice(0, 80)}`;
  }
  return `not decided (${diagnostics.error.kind})`;
}

export interface CheckResult {
  /** Expressions that are super-linear, undecided or opaque, and not justified. */
  readonly problems: readonly string[];
  /** Allow-list entries that match no expression any more. */
  readonly unused: readonly Justified[];
}

/**
 * Checks the expressions: an allowed one is not analysed (its entry says why it is safe); any
 * other must be built from text the parser can follow and be found linear by the analyser.
 */
export function checkRegexes(found: readonly FoundRegex[], allowed: readonly Justified[], run: Analyse = analyse): CheckResult {
  const used = new Set<Justified>();
  const problems: string[] = [];
  for (const regex of found) {
    const entry = allowed.find((candidate) => candidate.file === regex.file && candidate.pattern === (regex.source ?? regex.text));
    if (entry) {
      used.add(entry);
      continue;
    }
    if (regex.source === undefined) {
      problems.push(`${where(regex)}: built at run time from values the check cannot follow`);
      continue;
    }
    const problem = verdict(run(regex.source, regex.flags));
    if (problem !== undefined) problems.push(`${where(regex)}: ${problem}`);
  }
  return { problems, unused: allowed.filter((entry) => !used.has(entry)) };
}
