/**
 * The model of a message's edit history (section 2.5): from the original message and the edits
 * the run made, the snapshots `GET /messages/{id}/history` must return, oldest first, and a
 * checker that compares them with the server's answer field by field.
 *
 * Rendered HTML is never predicted (the Markdown processor is not part of the contract); it is
 * checked for consistency instead: each `prev_rendered_content` is the previous snapshot's
 * `rendered_content`, and a snapshot that did not change the content repeats it.
 */

/** One edit the run made, with what it changed. */
export interface AppliedEdit {
  readonly editorId: number;
  /** New raw content, when the edit changed it. */
  readonly content?: string;
  /** New topic, when the edit changed it. */
  readonly topic?: string;
  /** New channel ID, when the edit moved the message. */
  readonly channel?: number;
}

export interface OriginalMessage {
  readonly senderId: number;
  readonly content: string;
  readonly topic: string;
  readonly channel: number;
}

/** What one snapshot must hold. `stream` is checked only where the snapshot carries it. */
export interface ExpectedSnapshot {
  readonly topic: string;
  readonly content: string;
  readonly user_id: number;
  readonly prev_topic?: string;
  readonly prev_content?: string;
  readonly prev_stream?: number;
  readonly stream?: number;
  /** The edit changed the content: `prev_rendered_content` and `content_html_diff` are present. */
  readonly contentEdited: boolean;
}

/** `all` (every snapshot), `moves` (content-only edits hidden, reference 1.5). */
export type HistoryPolicy = 'all' | 'moves';

/** The expected snapshots, oldest first. */
export function expectedHistory(original: OriginalMessage, edits: readonly AppliedEdit[], policy: HistoryPolicy): ExpectedSnapshot[] {
  let { content, topic, channel } = original;
  const out: ExpectedSnapshot[] = [{ topic, content, user_id: original.senderId, contentEdited: false }];
  for (const edit of edits) {
    const snapshot: { -readonly [K in keyof ExpectedSnapshot]: ExpectedSnapshot[K] } = { topic, content, user_id: edit.editorId, contentEdited: false };
    if (edit.topic !== undefined) {
      snapshot.prev_topic = topic;
      snapshot.topic = topic = edit.topic;
    }
    if (edit.content !== undefined) {
      snapshot.prev_content = content;
      snapshot.content = content = edit.content;
      snapshot.contentEdited = true;
    }
    if (edit.channel !== undefined) {
      snapshot.prev_stream = channel;
      snapshot.stream = channel = edit.channel;
    }
    out.push(snapshot);
  }
  return policy === 'moves' ? applyMovesPolicy(out) : out;
}

/** Content-only edits vanish; edits that also renamed the topic lose their content diff. */
function applyMovesPolicy(snapshots: readonly ExpectedSnapshot[]): ExpectedSnapshot[] {
  return snapshots
    .filter((snapshot) => !snapshot.contentEdited || snapshot.prev_topic !== undefined)
    .map((snapshot) => {
      if (!snapshot.contentEdited) return snapshot;
      const { prev_content: _content, ...rest } = snapshot;
      return { ...rest, contentEdited: false };
    });
}

const BASE_KEYS = ['topic', 'content', 'rendered_content', 'timestamp', 'user_id'];

/**
 * Every difference between the server's snapshots and the model, as readable lines (empty when
 * they agree). `streamField`: true/false when the level fixes whether moves carry `stream`
 * (FL 118), undefined to accept either (a present `stream` must still be right).
 */
export function historyProblems(actual: ReadonlyArray<Readonly<Record<string, unknown>>>, expected: readonly ExpectedSnapshot[], streamField: boolean | undefined, checkRendering: boolean): string[] {
  const problems: string[] = [];
  if (actual.length !== expected.length) return [`expected ${expected.length} snapshots, got ${actual.length}`];
  let lastTimestamp = -Infinity;
  expected.forEach((want, index) => {
    const got = actual[index]!;
    const at = `message_history[${index}]`;
    const keys = new Set(BASE_KEYS);
    if (want.prev_topic !== undefined) keys.add('prev_topic');
    if (want.contentEdited) for (const key of ['prev_content', 'prev_rendered_content', 'content_html_diff']) keys.add(key);
    if (want.prev_stream !== undefined) keys.add('prev_stream');
    const streamAllowed = want.prev_stream !== undefined && streamField !== false;
    if (want.prev_stream !== undefined && streamField === true) keys.add('stream');
    for (const key of keys) if (!Object.prototype.hasOwnProperty.call(got, key)) problems.push(`${at}: missing '${key}'`);
    for (const key of Object.keys(got)) if (!keys.has(key) && !(key === 'stream' && streamAllowed)) problems.push(`${at}: unexpected '${key}'`);
    const same = (key: string, value: unknown) => {
      if (Object.prototype.hasOwnProperty.call(got, key) && got[key] !== value) problems.push(`${at}.${key}: expected ${JSON.stringify(value)}, got ${JSON.stringify(got[key])}`);
    };
    same('topic', want.topic);
    same('content', want.content);
    same('user_id', want.user_id);
    if (want.prev_topic !== undefined) same('prev_topic', want.prev_topic);
    if (want.prev_content !== undefined) same('prev_content', want.prev_content);
    if (want.prev_stream !== undefined) same('prev_stream', want.prev_stream);
    if (want.stream !== undefined && 'stream' in got) same('stream', want.stream);
    for (const key of ['rendered_content', 'content_html_diff', 'prev_rendered_content']) {
      if (key in got && typeof got[key] !== 'string') problems.push(`${at}.${key}: expected a string`);
    }
    const timestamp = got.timestamp;
    if (!Number.isInteger(timestamp)) problems.push(`${at}.timestamp: expected an integer, got ${JSON.stringify(timestamp)}`);
    else if ((timestamp as number) < lastTimestamp) problems.push(`${at}.timestamp: ${String(timestamp)} is older than the snapshot before it (the list is oldest first)`);
    else lastTimestamp = timestamp as number;
    if (checkRendering && index > 0) {
      const before = actual[index - 1]!;
      if (want.contentEdited) same('prev_rendered_content', before.rendered_content);
      else same('rendered_content', before.rendered_content);
    }
  });
  return problems;
}
