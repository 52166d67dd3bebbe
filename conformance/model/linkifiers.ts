/**
 * A model of the run's own linkifiers (sections 2.6, 4.16, 4.19): their order, patterns and
 * templates. Commands add, update, delete and reorder them through the API; after each one the
 * server's list, restricted to ours, must equal the model (other linkifiers of a shared target
 * are left where they are: a reorder permutes ours inside the slots they occupy).
 */
import fc from 'fast-check';
import type { CleanupContext } from '../cleanup.js';
import type { ApiClient } from '../client/api-client.js';
import { expectEqual, expectShape, expectSuccess } from '../expect/assert.js';
import { v } from '../expect/shape.js';
import type { RuleContext } from '../rules/types.js';

/** Since FL 176 the target is an RFC 6570 `url_template`; before, a `%(name)s` `url_format_string`. */
export const URL_TEMPLATE_LEVEL = 176;
export const LIST_LEVEL = 54;
export const UPDATE_LEVEL = 57;
export const REORDER_LEVEL = 202;

export interface LinkifierEntry {
  readonly id: number;
  readonly pattern: string;
  /** Always in template syntax (`{name}`), whatever the level. */
  readonly template: string;
}

const toFormat = (template: string): string => template.replace(/\{(\w+)\}/g, '%($1)s');
const fromFormat = (format: string): string => format.replace(/%\((\w+)\)s/g, '{$1}');

/** The parameters of a create or update at `level`: `url_template`, or the legacy format string. */
export function linkifierParams(level: number, pattern: string, template: string): Array<[string, string]> {
  return [['pattern', pattern], level >= URL_TEMPLATE_LEVEL ? ['url_template', template] : ['url_format_string', toFormat(template)]];
}

const listShape = v.object({ linkifiers: v.array(v.object({ id: v.int({ min: 1 }), pattern: v.string(), url_template: v.optional(v.string()), url_format: v.optional(v.string()) })) });

/** `GET /realm/linkifiers`, in the server's order, templates normalised to `{name}`. */
export async function listLinkifiers(client: ApiClient, level: number): Promise<LinkifierEntry[]> {
  const reply = await client.get('/realm/linkifiers');
  const { linkifiers } = expectShape(expectSuccess(reply), listShape, 'body', reply);
  const key = level >= URL_TEMPLATE_LEVEL ? 'url_template' : 'url_format';
  return linkifiers.map((item) => ({ id: item.id, pattern: item.pattern, template: level >= URL_TEMPLATE_LEVEL ? String(item[key]) : fromFormat(String(item[key])) }));
}

export interface LinkifierModel {
  ours: LinkifierEntry[];
}

export interface LinkifierReal {
  readonly admin: ApiClient;
  /** Lists the linkifiers (every user sees the realm's alike). */
  readonly reader: ApiClient;
  readonly level: number;
  /** A fresh name carrying the run tag (`ctx.name`). */
  readonly name: (label: string) => string;
  /** IDs this sequence created and has not deleted (cleanup deletes them). */
  readonly created: Set<number>;
  /** Every ID this sequence ever created: the server's list is restricted to these. */
  readonly everCreated: Set<number>;
}

/** A pattern with one named group and the template that uses it, both unique to the run. */
export function linkifierPair(tag: string): { pattern: string; template: string } {
  return { pattern: `${tag}-(?P<id>[0-9]+)`, template: `https://example.com/${tag}/{id}` };
}

/** Our linkifiers as the server lists them, in its order, must equal the model. */
async function verify(model: LinkifierModel, real: LinkifierReal): Promise<void> {
  const listed = (await listLinkifiers(real.reader, real.level)).filter((entry) => real.everCreated.has(entry.id));
  expectEqual(listed, model.ours, "the run's linkifiers in GET /realm/linkifiers (order, pattern, template)");
}

class Add implements fc.AsyncCommand<LinkifierModel, LinkifierReal> {
  check = () => true;
  async run(model: LinkifierModel, real: LinkifierReal): Promise<void> {
    const { pattern, template } = linkifierPair(real.name('lk'));
    const reply = await real.admin.post('/realm/filters', linkifierParams(real.level, pattern, template));
    const id = expectShape(expectSuccess(reply), v.object({ id: v.int({ min: 1 }) }), 'body', reply).id;
    real.created.add(id);
    real.everCreated.add(id);
    model.ours.push({ id, pattern, template });
    await verify(model, real);
  }
  toString = () => 'add';
}

class Update implements fc.AsyncCommand<LinkifierModel, LinkifierReal> {
  constructor(
    readonly pick: number,
    readonly newPattern: boolean,
  ) {}
  check = (model: Readonly<LinkifierModel>) => model.ours.length > 0;
  async run(model: LinkifierModel, real: LinkifierReal): Promise<void> {
    const index = this.pick % model.ours.length;
    const entry = model.ours[index]!;
    const tag = real.name('lk');
    const pattern = this.newPattern ? linkifierPair(tag).pattern : entry.pattern;
    const template = `https://example.com/${tag}/edited/{id}`;
    expectSuccess(await real.admin.patch(`/realm/filters/${entry.id}`, linkifierParams(real.level, pattern, template)));
    model.ours[index] = { id: entry.id, pattern, template };
    await verify(model, real);
  }
  toString = () => `update(${this.pick}, ${this.newPattern ? 'new pattern' : 'same pattern'})`;
}

class Delete implements fc.AsyncCommand<LinkifierModel, LinkifierReal> {
  constructor(readonly pick: number) {}
  check = (model: Readonly<LinkifierModel>) => model.ours.length > 0;
  async run(model: LinkifierModel, real: LinkifierReal): Promise<void> {
    const index = this.pick % model.ours.length;
    const [entry] = model.ours.splice(index, 1);
    expectSuccess(await real.admin.delete(`/realm/filters/${entry!.id}`));
    real.created.delete(entry!.id);
    await verify(model, real);
  }
  toString = () => `delete(${this.pick})`;
}

class Reorder implements fc.AsyncCommand<LinkifierModel, LinkifierReal> {
  constructor(readonly keys: readonly number[]) {}
  check = (model: Readonly<LinkifierModel>) => model.ours.length > 1;
  async run(model: LinkifierModel, real: LinkifierReal): Promise<void> {
    let permuted = model.ours.map((entry, i) => ({ entry, key: this.keys[i % this.keys.length]! + i / 1000 })).sort((a, b) => a.key - b.key).map((x) => x.entry);
    // Never the order we already have: a reorder that changes nothing proves nothing.
    if (permuted.every((entry, i) => entry === model.ours[i])) permuted = [...permuted.slice(1), permuted[0]!];
    const ours = new Set(permuted.map((entry) => entry.id));
    const full = (await listLinkifiers(real.reader, real.level)).map((entry) => entry.id);
    let next = 0;
    const ordered = full.map((id) => (ours.has(id) ? permuted[next++]!.id : id));
    expectSuccess(await real.admin.patch('/realm/linkifiers', { ordered_linkifier_ids: ordered }));
    model.ours = permuted;
    await verify(model, real);
  }
  toString = () => `reorder(${this.keys.join(',')})`;
}

/** The commands available at `level` (update since 57, reorder since 202). */
export function linkifierCommands(level: number): Array<fc.Arbitrary<fc.AsyncCommand<LinkifierModel, LinkifierReal>>> {
  return [
    fc.constant(new Add()),
    fc.nat().map((pick) => new Delete(pick)),
    ...(level >= UPDATE_LEVEL ? [fc.tuple(fc.nat(), fc.boolean()).map(([pick, fresh]) => new Update(pick, fresh))] : []),
    ...(level >= REORDER_LEVEL ? [fc.array(fc.nat({ max: 100 }), { minLength: 1, maxLength: 8 }).map((keys) => new Reorder(keys))] : []),
  ];
}

/** Starts a sequence with `count` linkifiers of ours (so updates and reorders have material). */
export async function seedLinkifiers(model: LinkifierModel, real: LinkifierReal, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Add().run(model, real);
}

/** Deletes what a sequence created and left. */
export async function deleteCreated(real: LinkifierReal): Promise<void> {
  for (const id of real.created) await real.admin.delete(`/realm/filters/${id}`);
  real.created.clear();
}

/** Creates a linkifier of the run as the administrator, deleted when the rule ends. */
export async function createOurs(ctx: RuleContext, pattern: string, template: string): Promise<number> {
  const reply = await ctx.as('admin').post('/realm/filters', linkifierParams(ctx.featureLevel, pattern, template));
  const id = expectShape(expectSuccess(reply), v.object({ id: v.int({ min: 1 }) }), 'body', reply).id;
  ctx.cleanup(`delete linkifier ${id} (${pattern})`, (c) => deleteChecked(c.as('admin'), id, pattern));
  return id;
}

/** Deletes a linkifier of the run in a cleanup; 400 means it is gone already. Anything else leaves it in place: say so. */
export async function deleteChecked(admin: ApiClient, id: number, pattern: string): Promise<void> {
  const reply = await admin.delete(`/realm/filters/${id}`);
  if (reply.status !== 200 && reply.status !== 400) throw new Error(`DELETE /realm/filters/${id} answered HTTP ${reply.status}: linkifier ${id} (${pattern}) may still be active`);
}

/**
 * Records the order of the linkifiers that exist now; at the end, deletes any linkifier of this
 * run still listed and puts the others back in that order if it changed.
 */
export async function guardOthers(ctx: RuleContext): Promise<void> {
  // Any user lists the realm's linkifiers alike: a quieter identity when the rule has one.
  const before = (await listLinkifiers(ctx.reader('admin'), ctx.featureLevel)).map((entry) => entry.id);
  ctx.cleanup('restore the linkifiers of others', async (c: CleanupContext) => {
    const admin = c.as('admin');
    const now = await listLinkifiers(admin, ctx.featureLevel);
    for (const entry of now.filter((item) => item.pattern.includes(ctx.runTag))) await admin.delete(`/realm/filters/${entry.id}`);
    const remaining = now.filter((item) => !item.pattern.includes(ctx.runTag)).map((entry) => entry.id);
    const wanted = [...before.filter((id) => remaining.includes(id)), ...remaining.filter((id) => !before.includes(id))];
    if (ctx.featureLevel >= REORDER_LEVEL && wanted.join() !== remaining.join()) await admin.patch('/realm/linkifiers', { ordered_linkifier_ids: wanted });
    // Read back: every member's messages are rendered with these.
    const after = await listLinkifiers(admin, ctx.featureLevel);
    const ours = after.filter((item) => item.pattern.includes(ctx.runTag));
    if (ours.length > 0) throw new Error(`linkifiers of the run still active: ${ours.map((item) => `${item.id} (${item.pattern})`).join(', ')}`);
    const order = after.map((entry) => entry.id);
    if (ctx.featureLevel >= REORDER_LEVEL && order.join() !== wanted.join()) throw new Error(`linkifier order left changed: [${order.join(', ')}], was [${wanted.join(', ')}]`);
  });
}
