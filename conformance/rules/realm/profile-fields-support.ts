/**
 * What the custom profile field rules share (the real server's `custom_profile_fields` API):
 * the field shape, the levels of its parameters, and the skeleton of a realm-wide rule that
 * creates fields as an organization owner (an administrator too; the owner's request budget is
 * the one the run's other rules use least) or as the administrator. Every field a rule creates (tracked by ID; run-tagged
 * names too) is deleted when the rule ends, and the order of the fields that existed before is
 * restored and read back.
 */
import type { ApiClient, JsonObject, Reply } from '../../client/api-client.js';
import type { Params } from '../../client/encode.js';
import type { CleanupContext } from '../../cleanup.js';
import { check, expectShape, expectSuccess } from '../../expect/assert.js';
import { type Infer, v } from '../../expect/shape.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import type { Rule, RuleContext } from '../types.js';

export const FIELDS_PATH = '/realm/profile_fields';

/** The field types (`custom_profile_field_types`); pronouns from level 151. */
export const FIELD_TYPE = { SHORT_TEXT: 1, LONG_TEXT: 2, SELECT: 3, DATE: 4, URL: 5, USER: 6, EXTERNAL_ACCOUNT: 7, PRONOUNS: 8 } as const;

export const FIELD_LEVELS = {
  /** `display_in_profile_summary`, at most two fields. */
  SUMMARY: 146,
  PRONOUNS: 151,
  REQUIRED: 244,
  /** `PATCH /realm/profile_fields/{id}` keeps what is not sent (reset to defaults before). */
  PATCH_KEEPS: 252,
  EDITABLE_BY_USER: 296,
} as const;

/** The real server's `CustomProfileField` limits (not published by register). */
export const NAME_MAX = 40;
export const HINT_MAX = 80;
export const SUMMARY_MAX = 2;

const fieldShape = v.object({
  id: v.int({ min: 1 }),
  name: v.string(),
  type: v.int({ min: 1 }),
  hint: v.string(),
  field_data: v.string(),
  order: v.int(),
  required: v.optional(v.bool()),
  editable_by_user: v.optional(v.bool()),
  display_in_profile_summary: v.optional(v.literal(true)),
});
export type ApiField = Infer<typeof fieldShape>;

/** The field types the level knows. */
export const typesAt = (level: number): number[] => Object.values(FIELD_TYPE).filter((type) => type !== FIELD_TYPE.PRONOUNS || level >= FIELD_LEVELS.PRONOUNS);

/** `GET /realm/profile_fields` as `client`, shape-checked, in the listed order. */
export async function listFields(client: ApiClient): Promise<ApiField[]> {
  const reply = await client.get(FIELDS_PATH);
  return expectShape(expectSuccess(reply), v.object({ custom_fields: v.array(fieldShape) }), 'body', reply).custom_fields;
}

/** The listed field with this ID, or undefined. */
export const fieldById = async (client: ApiClient, id: number): Promise<ApiField | undefined> => (await listFields(client)).find((field) => field.id === id);

/** `field_data` parsed (an empty text is an empty object). */
export function fieldData(field: ApiField): unknown {
  return field.field_data === '' ? {} : (JSON.parse(field.field_data) as unknown);
}

/** List field choices `key -> text`, in the given order (orders "1", "2", ...). */
export function choices(...entries: ReadonlyArray<readonly [string, string]>): Array<[string, { text: string; order: string }]> {
  return entries.map(([key, text], index) => [key, { text, order: String(index + 1) }]);
}

/** The `field_data` of a custom external account whose URL pattern holds `%(username)s` once. */
export const customAccount = { subtype: 'custom', url_pattern: 'https://example.com/people/%(username)s' };

/** The fields a rule created, and the order of the realm's fields before it. */
export class RuleFields {
  readonly ids: number[] = [];

  constructor(readonly admin: ApiClient) {}

  /** Records a field created by any means, for the cleanup. */
  track(id: number): number {
    if (!this.ids.includes(id)) this.ids.push(id);
    return id;
  }

  /** Sends a creation and tracks what it created; the reply is the caller's to check. */
  async attempt(params: Params): Promise<{ reply: Reply; id: number | undefined }> {
    const reply = await this.admin.post(FIELDS_PATH, params);
    const id = typeof reply.body?.id === 'number' ? this.track(reply.body.id) : undefined;
    return { reply, id };
  }

  /** Creates a field that must be accepted and returns its ID. */
  async create(params: Params): Promise<number> {
    const { reply, id } = await this.attempt(params);
    expectSuccess(reply);
    check(id !== undefined, 'the creation response carries the integer id', reply);
    return id;
  }
}

/** Who changes the fields: the owner by default, the administrator where the owner's budget is spent. */
export type FieldsActor = 'owner' | 'admin';

/** What a profile field rule's body gets. */
export interface FieldsFixture {
  /** Who changes the fields (the owner, or the administrator). */
  readonly admin: ApiClient;
  /** The second member, who reads them back (the list is public; this spares the actor's request budget). */
  readonly reader: ApiClient;
  readonly fields: RuleFields;
  /** The realm's fields when the rule started, in their order. */
  readonly before: readonly ApiField[];
}

/**
 * Deletes the rule's fields (tracked, or named with the run tag), then restores the order of
 * the fields that were there before and reads it back. The order numbers themselves can only be
 * rewritten as positions (`PATCH /realm/profile_fields` sets each field's `order` to its index).
 */
export async function removeRuleFields(c: CleanupContext, actor: FieldsActor, runTag: string, ids: readonly number[], before: readonly ApiField[]): Promise<void> {
  const admin = c.as(actor);
  // Listings are public: the second member reads them, sparing the actor's request budget.
  const reader = c.as('second-member');
  const ours = (listed: readonly ApiField[]) => listed.filter((field) => ids.includes(field.id) || field.name.includes(runTag));
  for (const field of ours(await listFields(reader))) {
    const reply = await admin.delete(`${FIELDS_PATH}/${field.id}`);
    if (reply.status !== 200) throw new Error(`deleting custom profile field ${field.id} (${field.name}) answered HTTP ${reply.status}; it stays in the realm`);
  }
  const remaining = await listFields(reader);
  const left = ours(remaining);
  if (left.length > 0) throw new Error(`custom profile fields left in the realm: ${left.map((field) => field.name).join(', ')}`);
  const wanted = before.map((field) => field.id).filter((id) => remaining.some((field) => field.id === id));
  const now = remaining.map((field) => field.id);
  const others = now.filter((id) => !wanted.includes(id));
  if (JSON.stringify(now) === JSON.stringify([...wanted, ...others])) return;
  const reply = await admin.patch(FIELDS_PATH, { order: [...wanted, ...others] });
  if (reply.status !== 200) throw new Error(`restoring the custom profile field order answered HTTP ${reply.status}; the order stays changed`);
  const after = (await listFields(reader)).map((field) => field.id);
  if (JSON.stringify(after) !== JSON.stringify([...wanted, ...others])) throw new Error(`the custom profile field order reads back as ${after.join(', ')}, not ${[...wanted, ...others].join(', ')}`);
}

/** A realm-wide rule that creates custom profile fields as `actor` (the owner unless named). */
export function profileFieldRule(header: RuleHeader & { readonly endpoint: string }, body: (ctx: RuleContext, fixture: FieldsFixture) => Promise<void>, actor: FieldsActor = 'owner'): Rule {
  const prepare = async (ctx: RuleContext): Promise<FieldsFixture> => {
    const admin = ctx.as(actor);
    const reader = ctx.as('second-member');
    const before = await listFields(reader);
    const fields = new RuleFields(admin);
    ctx.cleanup('delete the rule\'s custom profile fields and restore the order', (c) => removeRuleFields(c, actor, ctx.runTag, fields.ids, before));
    return { admin, reader, fields, before };
  };
  return fixtureRule(header, { endpoint: header.endpoint, writes: true, realmWide: true, needs: [actor, 'second-member'] }, prepare, body);
}

/** Creation parameters: a name, a type, and anything else. */
export function fieldParams(name: string, type: number, extra: ReadonlyArray<readonly [string, unknown]> = []): Array<readonly [string, unknown]> {
  return [['name', name], ['field_type', type], ...extra];
}

/** A user's values (`profile_data` of `GET /users/{id}` with `include_custom_profile_fields`), by field ID. */
export async function profileValues(client: ApiClient, userId: number): Promise<Map<number, JsonObject>> {
  const reply = await client.get(`/users/${userId}`, { include_custom_profile_fields: true });
  const body = expectShape(expectSuccess(reply), v.object({ user: v.object({ profile_data: v.optional(v.record(v.object({}))) }) }), 'body', reply);
  return new Map(Object.entries(body.user.profile_data ?? {}).map(([id, value]) => [Number(id), value as JsonObject]));
}

/** A value as stored: text, or a user field's ID list (read as a JSON text or a list). */
export function valueOf(entry: JsonObject | undefined): unknown {
  const value = entry?.value;
  if (typeof value === 'string' && value.startsWith('[')) {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}
