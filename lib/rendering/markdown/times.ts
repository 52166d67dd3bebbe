/**
 * Global times, `<time:2025-06-01T12:00:00+00:00>` (or a UNIX timestamp): an HTML5 `<time>`
 * with the UTC instant, showing the original text; unreadable input gets the real server's
 * `timestamp-error` span.
 */
import type MarkdownIt from 'markdown-it';
import type { StateInline, Token } from 'markdown-it';
import { escapeAttribute, escapeHtml } from './escape.js';
import { parseWordDate } from './time-words.js';

const TIME = /^<time:([^>]*)>/;

const dateOf = (ms: number): Date | undefined => (Number.isFinite(ms) && !Number.isNaN(new Date(ms).getTime()) ? new Date(ms) : undefined);

/** The UTC instant of a time's text (a UNIX timestamp, or a date read as UTC when it has no zone). */
function parseTime(text: string): Date | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (/^-?\d+(\.\d+)?$/.test(trimmed)) return dateOf(Number(trimmed) * 1000);
  // Dates in words are read as the real server reads them; JavaScript's own reading is kept for
  // numeric forms only, as it rolls impossible dates over (31 Feb is 3 Mar) where Python refuses.
  if (/[a-z]{2}/i.test(trimmed.replace(/T\d|Z$|UTC$|GMT$/g, ''))) return parseWordDate(trimmed);
  const hasZone = /([Zz]|[+-]\d\d:?\d\d|UTC|GMT)$/.test(trimmed);
  return (hasZone ? undefined : dateOf(Date.parse(`${trimmed} UTC`))) ?? dateOf(Date.parse(trimmed));
}

function time(state: StateInline, checkOnly: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x3c /* < */) return false;
  const match = TIME.exec(state.src.slice(state.pos));
  if (!match) return false;
  if (!checkOnly) state.push('zulip_time', 'time', 0).meta = match[1] as string;
  state.pos += match[0].length;
  return true;
}

function renderTime(tokens: Token[], idx: number): string {
  const text = (tokens[idx] as Token).meta as string;
  const date = parseTime(text);
  if (!date) return `<span class="timestamp-error">Invalid time format: ${escapeHtml(text)}</span>`;
  const iso = date.toISOString().replace(/\.000Z$/, 'Z');
  return `<time datetime="${escapeAttribute(iso)}">${escapeHtml(text)}</time>`;
}

/** Registers the global-time rule on a markdown-it instance. */
export function timesPlugin(md: MarkdownIt): void {
  md.inline.ruler.before('autolink', 'zulip_time', time);
  md.renderer.rules['zulip_time'] = renderTime;
}
