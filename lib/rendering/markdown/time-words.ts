/**
 * Dates written in words, read the way the real server's parser (`dateutil.parser.parse` with its
 * common time zone abbreviations) reads them: `Jun 5th 2017, 10:30PM`, `31 Dec 2017 5:30 am IST`,
 * `Monday, 5 June 2017 22:30 +02:00`. Day, month and year must all be given (the real server
 * would take missing parts from today's date, which would make a rendering depend on the day it
 * was made); anything else it cannot place makes the text unreadable here.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = new Set(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']);
/** Words dateutil skips between the parts of a date. */
const FILLER_WORDS = new Set(['at', 'on', 'and', 'of']);

/** Offsets in minutes of common abbreviations, as the real server resolves them (IST is India). */
const ZONES = new Map([
  ['utc', 0], ['gmt', 0], ['z', 0], ['ist', 330], ['est', -300], ['edt', -240], ['cst', -360], ['cdt', -300],
  ['mst', -420], ['mdt', -360], ['pst', -480], ['pdt', -420], ['cet', 60], ['cest', 120], ['bst', 60],
  ['eet', 120], ['eest', 180], ['jst', 540], ['kst', 540], ['aest', 600], ['aedt', 660], ['nzst', 720],
]);

interface Parts {
  year?: number;
  month?: number;
  day?: number;
  hour?: number;
  minute?: number;
  second?: number;
  meridiem?: 'am' | 'pm';
  offset?: number;
}

const TOKEN = /(\d{1,2}):(\d{2})(?::(\d{2}))?|(\d{1,2})(?=\s?[ap]\.?m\b)|\d+(?:st|nd|rd|th)?|[a-z]+\.?|[+-]\d{2}:?\d{2}|[,\s]+|./gi;

function readWord(word: string, parts: Parts): boolean {
  const lower = word.toLowerCase().replace(/\.$/, '');
  const month = MONTHS.findIndex((name) => lower.startsWith(name) && name.length >= 3);
  if (month >= 0 && parts.month === undefined && /^[a-z]+$/.test(lower)) {
    parts.month = month + 1;
    return true;
  }
  if (WEEKDAYS.has(lower.slice(0, 3)) || FILLER_WORDS.has(lower)) return true;
  if (lower === 'am' || lower === 'pm' || lower === 'a.m' || lower === 'p.m') {
    parts.meridiem = lower.startsWith('a') ? 'am' : 'pm';
    return true;
  }
  const zone = ZONES.get(lower);
  if (zone !== undefined && parts.offset === undefined) parts.offset = zone;
  return zone !== undefined;
}

function readToken(token: string, match: RegExpExecArray, parts: Parts): boolean {
  if (/^[,\s]+$/.test(token)) return true;
  if (match[4] !== undefined) {
    [parts.hour, parts.minute, parts.second] = [Number(match[4]), 0, 0];
    return true;
  }
  if (match[1] !== undefined) {
    [parts.hour, parts.minute, parts.second] = [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
    return true;
  }
  const offset = /^([+-])(\d{2}):?(\d{2})$/.exec(token);
  if (offset) {
    parts.offset = (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3]));
    return true;
  }
  const number = /^(\d+)(st|nd|rd|th)?$/i.exec(token);
  if (number) {
    const value = Number(number[1]);
    if ((number[1] as string).length === 4 && number[2] === undefined && parts.year === undefined) parts.year = value;
    else if (value >= 1 && value <= 31 && parts.day === undefined) parts.day = value;
    else return false;
    return true;
  }
  return /^[a-z]/i.test(token) && readWord(token, parts);
}

/** The instant a date in words names, or undefined when it cannot be read. */
export function parseWordDate(text: string): Date | undefined {
  const parts: Parts = {};
  for (const match of text.matchAll(TOKEN)) {
    if (!readToken(match[0], match as RegExpExecArray, parts)) return undefined;
  }
  const { year, month, day } = parts;
  if (year === undefined || month === undefined || day === undefined) return undefined;
  let hour = parts.hour ?? 0;
  if (hour > 23 || (parts.minute ?? 0) > 59 || (parts.second ?? 0) > 59 || (parts.meridiem !== undefined && (hour < 1 || hour > 12))) return undefined;
  if (parts.meridiem === 'pm' && hour < 12) hour += 12;
  if (parts.meridiem === 'am' && hour === 12) hour = 0;
  const utc = Date.UTC(year, month - 1, day, hour, parts.minute ?? 0, parts.second ?? 0) - (parts.offset ?? 0) * 60_000;
  const date = new Date(utc);
  // Reject days past the month's end (31 Feb), which Date.UTC would roll over.
  return new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day ? date : undefined;
}
