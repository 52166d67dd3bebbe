/**
 * What the custom emoji rules share: a small valid image, uploading it under a name (one
 * multipart file), reading `GET /realm/emoji`, and deactivating every emoji the rule added when
 * it ends (the real server keeps deactivated emoji listed; names are reusable once deactivated).
 */
import type { ApiClient, Reply } from '../../client/api-client.js';
import type { CleanupContext } from '../../cleanup.js';
import type { FilePart } from '../../client/encode.js';
import { expectShape, expectSuccess } from '../../expect/assert.js';
import { type Infer, v } from '../../expect/shape.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import type { Rule, RuleContext } from '../types.js';

/** A 1x1 PNG (what the real server's image checks accept). */
const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** The image as one multipart file part (field `name`). */
export const pngPart = (name = 'file'): FilePart => ({ name, filename: 'emoji.png', contentType: 'image/png', data: new Uint8Array(PNG_1X1) });

const emojiShape = v.object({ id: v.string({ nonEmpty: true }), name: v.string(), source_url: v.string(), deactivated: v.bool(), author_id: v.optional(v.nullable(v.int())) });
export type ApiEmoji = Infer<typeof emojiShape>;
export const realmEmojiShape = v.record(emojiShape);

export const emojiPath = (name: string): string => `/realm/emoji/${encodeURIComponent(name)}`;

/** `GET /realm/emoji` as `client`: every custom emoji (deactivated ones included), shape-checked. */
export async function listEmoji(client: ApiClient): Promise<ApiEmoji[]> {
  const reply = await client.get('/realm/emoji');
  return Object.values(expectShape(expectSuccess(reply), v.object({ emoji: realmEmojiShape }), 'body', reply).emoji);
}

/** The active emoji with this name, if listed. */
export const activeEmoji = async (client: ApiClient, name: string): Promise<ApiEmoji | undefined> => (await listEmoji(client)).find((emoji) => emoji.name === name && !emoji.deactivated);

/** Emoji names a rule tried to add; every active one is deactivated when the rule ends. */
export class RuleEmoji {
  private readonly names = new Set<string>();

  constructor(ctx: RuleContext) {
    ctx.cleanup('deactivate the rule\'s custom emoji', (c) => deactivateAll(c, [...this.names]));
  }

  /** Uploads `files` (one PNG by default) as `client` under `name`; the reply is the caller's to check. */
  async upload(client: ApiClient, name: string, files: readonly FilePart[] = [pngPart()]): Promise<Reply> {
    this.names.add(name.trim().replaceAll(' ', '_'));
    return client.post(emojiPath(name), {}, { encoding: 'multipart', files });
  }
}

async function deactivateAll(c: CleanupContext, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  const admin = c.as('admin');
  // The list is public: the member reads it, sparing the administrator's request budget.
  const active = (await listEmoji(c.as('member'))).filter((emoji) => !emoji.deactivated && names.includes(emoji.name));
  const left: string[] = [];
  for (const emoji of active) if ((await admin.delete(emojiPath(emoji.name))).status !== 200) left.push(emoji.name);
  if (left.length > 0) throw new Error(`custom emoji left active: ${left.join(', ')}`);
}

/** What an emoji rule's body gets: the rule's emoji (deactivated at its end) and a member who reads listings. */
export interface EmojiFixture {
  readonly emoji: RuleEmoji;
  /** The member: `GET /realm/emoji` is open to everyone, which spares the administrator's request budget. */
  readonly reader: ApiClient;
}

/** A rule that adds custom emoji (by default `POST /realm/emoji/{emoji_name}` as the administrator). */
export function emojiRule(header: RuleHeader, body: (ctx: RuleContext, fixture: EmojiFixture) => Promise<void>): Rule {
  const defaults = { endpoint: 'POST /realm/emoji/{emoji_name}', writes: true, needs: ['admin', 'member'] } as const;
  return fixtureRule(header, defaults, async (ctx) => ({ emoji: new RuleEmoji(ctx), reader: ctx.as('member') }), body);
}
