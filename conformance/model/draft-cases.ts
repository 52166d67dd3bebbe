/**
 * Draft objects (section 2.2) the suite sends, each with how it must read back from
 * `GET /drafts`: channel drafts keep their channel and topic; direct drafts keep their
 * recipients (without the owner; a draft to oneself reads `[own ID]`) and lose the topic; a
 * direct draft without recipients and an unaddressed draft read back as type "" with `to: []`.
 * Content is generated already normalised (no surrounding whitespace), so it reads back as sent.
 */
import fc from 'fast-check';
import { printableText } from '../rules/support/arbitraries.js';

export type DraftType = '' | 'stream' | 'private';

/** The draft object as sent. */
export interface DraftInput {
  readonly type: DraftType;
  readonly to: readonly number[];
  readonly topic: string;
  readonly content: string;
  readonly timestamp?: number;
}

/** How the draft reads back; `timestamp` undefined when the server chose it ("now"). */
export interface ExpectedDraft {
  readonly type: DraftType;
  readonly to: readonly number[];
  readonly topic: string;
  readonly content: string;
  readonly timestamp?: number;
}

export interface DraftCase {
  readonly input: DraftInput;
  readonly expected: ExpectedDraft;
}

/** What the drafts need from the target: a channel the owner can post to, the owner, other users. */
export interface DraftWorld {
  readonly channelId?: number;
  readonly selfId: number;
  readonly otherIds: readonly number[];
}

const codePoints = (text: string): number => [...text].length;

/** Text that is its own normalised form: non-blank, no surrounding whitespace. */
export const draftContent = printableText(40).filter((text) => text !== '' && text === text.trim() && codePoints(text) <= 10_000);

/** Topics within the 60-code-point limit (so no truncation), any printable text. */
export const draftTopic = printableText(20).filter((text) => codePoints(text) <= 60);

const timestamp = fc.option(fc.integer({ min: 1_500_000_000, max: 1_900_000_000 }), { nil: undefined });

const ascending = (ids: Iterable<number>): number[] => [...new Set(ids)].sort((a, b) => a - b);

function build(input: DraftInput, expected: Omit<ExpectedDraft, 'content' | 'timestamp'>): DraftCase {
  const time = input.timestamp === undefined ? {} : { timestamp: input.timestamp };
  return { input, expected: { ...expected, content: input.content, ...time } };
}

/** Any valid draft for this target, paired with its read-back form. */
export function draftCase(world: DraftWorld): fc.Arbitrary<DraftCase> {
  const cases: Array<fc.Arbitrary<DraftCase>> = [];
  if (world.channelId !== undefined) {
    const channel = world.channelId;
    cases.push(
      fc.record({ topic: draftTopic, content: draftContent, timestamp }).map(({ topic, content, timestamp: time }) =>
        build({ type: 'stream', to: [channel], topic, content, ...(time === undefined ? {} : { timestamp: time }) }, { type: 'stream', to: [channel], topic }),
      ),
    );
  }
  const recipients = world.otherIds.length > 0 ? fc.oneof(fc.subarray([...world.otherIds], { minLength: 1, maxLength: 3 }), fc.constant([world.selfId])) : fc.constant([world.selfId]);
  cases.push(
    fc.record({ to: recipients, topic: draftTopic, content: draftContent, timestamp }).map(({ to, topic, content, timestamp: time }) =>
      build({ type: 'private', to, topic, content, ...(time === undefined ? {} : { timestamp: time }) }, { type: 'private', to: ascending(to), topic: '' }),
    ),
    fc.record({ type: fc.constantFrom<DraftType>('', 'private'), topic: draftTopic, content: draftContent, timestamp }).map(({ type, topic, content, timestamp: time }) =>
      build({ type, to: [], topic, content, ...(time === undefined ? {} : { timestamp: time }) }, { type: '', to: [], topic: '' }),
    ),
  );
  return fc.oneof(...cases);
}

/** The API draft as it is listed (`to` compared as a sorted set: its order is not established). */
export interface ListedDraft {
  readonly id: number;
  readonly type: string;
  readonly to: readonly number[];
  readonly topic: string;
  readonly content: string;
  readonly timestamp: number;
}

/** Differences between a listed draft and what it should be ('' when it matches). */
export function draftDifference(listed: ListedDraft, expected: ExpectedDraft): string {
  const problems: string[] = [];
  if (listed.type !== expected.type) problems.push(`type ${JSON.stringify(listed.type)} (expected ${JSON.stringify(expected.type)})`);
  if (JSON.stringify(ascending(listed.to)) !== JSON.stringify(ascending(expected.to))) problems.push(`to ${JSON.stringify(listed.to)} (expected ${JSON.stringify(expected.to)})`);
  if (listed.topic !== expected.topic) problems.push(`topic ${JSON.stringify(listed.topic)} (expected ${JSON.stringify(expected.topic)})`);
  if (listed.content !== expected.content) problems.push(`content ${JSON.stringify(listed.content)} (expected ${JSON.stringify(expected.content)})`);
  if (expected.timestamp !== undefined && listed.timestamp !== expected.timestamp) problems.push(`timestamp ${listed.timestamp} (expected ${expected.timestamp})`);
  return problems.join('; ');
}
