/**
 * Whether the Rules column of docs/endpoints.md tells the truth about the conformance suite: every
 * served operation is in a table row; every rule whose `endpoint` names an operation is named
 * (by id or glob) in a row of that operation; every id or glob names a rule of its row's
 * operations; an operation no rule names has a stated reason instead. Pure, so that doctored
 * tables can show that each kind of mistake is found.
 */
import { endpointNames } from '../../conformance/endpoint-patterns.js';
import { globToRegExp } from '../../conformance/glob.js';
import { codeSpans, mentionedOperations, type Operation, operationName, servedMatches } from './endpoint-mentions.js';

export interface RuleEntry {
  readonly id: string;
  readonly endpoint: string;
}

export interface TableRow {
  /** 1-based line in the page. */
  readonly line: number;
  readonly endpoint: string;
  /** Undefined when the row's table has no Rules column. */
  readonly rules: string | undefined;
}

/** Rows whose endpoints are served outside the `/api/v1` route table (the file-serving URLs). */
const OUTSIDE_API = 'outside `/api/v1`';

/** A rule id or glob in a Rules cell: `messages/*`, `message-edit/content-edit-time-limit`. */
const RULE_REF = /^[a-z0-9*?][a-z0-9*?-]*(?:\/[a-z0-9*?-]+)+$/;

/** Splits a table line into cells at `|` outside code spans (`\|` stays in its cell). */
export function tableCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let inCode = false;
  for (let i = 1; i < line.length; i++) {
    const char = line[i]!;
    if (char === '`') inCode = !inCode;
    if (char === '\\' && line[i + 1] === '|') {
      cell += '\\|';
      i++;
    } else if (char === '|' && !inCode) {
      cells.push(cell.trim());
      cell = '';
    } else cell += char;
  }
  return cells;
}

/** The body rows of every table whose first header cell is `Endpoint`. */
export function endpointRows(page: string): TableRow[] {
  const lines = page.split('\n');
  const rows: TableRow[] = [];
  let header: string[] | undefined;
  lines.forEach((line, i) => {
    if (!line.startsWith('|')) header = undefined;
    else if (line.startsWith('| Endpoint |')) header = tableCells(line);
    else if (header && !/^\|[-| ]+\|$/.test(line)) {
      const cells = tableCells(line);
      const rulesAt = header.indexOf('Rules');
      rows.push({ line: i + 1, endpoint: cells[0] ?? '', rules: rulesAt < 0 ? undefined : (cells[rulesAt] ?? '') });
    }
  });
  return rows;
}

const refsOf = (cell: string): string[] => codeSpans(cell).filter((span) => RULE_REF.test(span));

/** What a Rules cell says besides its ids: the reason an operation is not checked. */
const reasonOf = (cell: string): string => cell.replace(/`[^`]*`/g, (span) => (RULE_REF.test(span.slice(1, -1)) ? '' : span)).replace(/^[\s,;.]+|[\s,;.]+$/g, '');

/** The operations a rule's `endpoint` names: a path without a method names every method served there. */
function namedOperations(endpoint: string, served: readonly Operation[]): { readonly ops: string[]; readonly unserved: string[] } {
  if (endpoint.trim() === '*') return { ops: [], unserved: [] };
  const ops: string[] = [];
  const unserved: string[] = [];
  for (const { method, path } of endpointNames(endpoint)) {
    const named = served.map(operationName).filter((name) => (method === '*' ? name.endsWith(` ${path}`) : name === `${method} ${path}`));
    if (named.length === 0) unserved.push(method === '*' ? path : `${method} ${path}`);
    ops.push(...named);
  }
  return { ops, unserved };
}

/** Each served operation's rules; a rule whose field names nothing, or an unserved operation, is a problem. */
function ruleTargets(rules: readonly RuleEntry[], served: readonly Operation[], problems: string[]): Map<string, RuleEntry[]> {
  const byOperation = new Map<string, RuleEntry[]>(served.map((op) => [operationName(op), []]));
  for (const rule of rules) {
    const { ops, unserved } = namedOperations(rule.endpoint, served);
    if (ops.length === 0 && unserved.length === 0 && rule.endpoint.trim() !== '*') problems.push(`rule ${rule.id}: endpoint '${rule.endpoint}' names no 'METHOD /path' (or '*')`);
    for (const name of unserved) problems.push(`rule ${rule.id}: ${name} is not served`);
    for (const name of new Set(ops)) byOperation.get(name)?.push(rule);
  }
  return byOperation;
}

/** Every way the page's Rules column disagrees with the route table and the rules; empty when it is right. */
export function rulesColumnProblems(page: string, served: readonly Operation[], rules: readonly RuleEntry[]): string[] {
  const problems: string[] = [];
  const rulesOf = ruleTargets(rules, served, problems);
  const rowsOf = new Map<string, TableRow[]>();
  for (const row of endpointRows(page)) {
    const where = `docs/endpoints.md:${row.line}`;
    if (row.rules === undefined) {
      problems.push(`${where}: the table has no Rules column`);
      continue;
    }
    const ops = new Set<string>();
    if (!row.endpoint.includes(OUTSIDE_API)) {
      for (const written of mentionedOperations(row.endpoint)) {
        const matches = servedMatches(written, served);
        if (matches.length !== 1) problems.push(`${where}: ${written.method} ${written.path} names ${matches.length === 0 ? 'no served operation' : `${matches.length} served operations`}`);
        for (const op of matches) ops.add(operationName(op));
      }
    }
    for (const name of ops) rowsOf.set(name, [...(rowsOf.get(name) ?? []), row]);
    const rowRules = [...ops].flatMap((name) => rulesOf.get(name) ?? []);
    for (const ref of refsOf(row.rules)) {
      if (!rowRules.some((rule) => globToRegExp(ref).test(rule.id))) problems.push(`${where}: \`${ref}\` names no rule of ${[...ops].join(', ') || 'this row'}`);
    }
    const reason = reasonOf(row.rules);
    const unchecked = [...ops].filter((name) => (rulesOf.get(name) ?? []).length === 0);
    if (ops.size === 0 || unchecked.length === ops.size) {
      if (reason === '') problems.push(`${where}: no rule checks ${[...ops].join(', ') || 'this row'}, and the Rules cell gives no reason`);
      continue;
    }
    const named = new Set(mentionedOperations(row.rules).flatMap((written) => servedMatches(written, served)).map(operationName));
    for (const name of unchecked) {
      if (!named.has(name) || reason === '') problems.push(`${where}: no rule checks ${name}, and the Rules cell does not name it with a reason`);
    }
  }
  for (const [name, list] of rulesOf) {
    const rows = rowsOf.get(name) ?? [];
    if (rows.length === 0) {
      problems.push(`${name} is served but in no table of docs/endpoints.md`);
      continue;
    }
    const refs = rows.flatMap((row) => refsOf(row.rules ?? '')).map(globToRegExp);
    for (const rule of list) {
      if (!refs.some((ref) => ref.test(rule.id))) problems.push(`rule ${rule.id} checks ${name} but is not named in its Rules cell (docs/endpoints.md:${rows.map((row) => row.line).join(', ')})`);
    }
  }
  return problems;
}
