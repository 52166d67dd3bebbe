/**
 * The model-based sequence for navigation views (sections 2.8, 4.13): the model is the views
 * this run created (fragment -> pinned, name), all under one fragment prefix that carries the
 * run tag. Commands add views (new or taken fragments), pin/unpin and rename them (to a fresh
 * name or another view's name), delete them, and edit or delete fragments that do not exist.
 * After each command, the user's views under the prefix must be exactly the model.
 */
import fc from 'fast-check';
import type { ApiClient, Reply } from '../client/api-client.js';
import { check, expectError, expectShape, expectSuccess, fail } from '../expect/assert.js';
import { v } from '../expect/shape.js';

export interface ViewState {
  readonly is_pinned: boolean;
  readonly name: string | null;
}

export interface ViewsModel {
  /** Fragment prefix of this sequence (carries the run tag). */
  readonly prefix: string;
  readonly views: Map<string, ViewState>;
  /** Fresh-name counter. */
  names: number;
}

export interface ViewsReal {
  readonly client: ApiClient;
  /** Every fragment ever added (the rule's cleanup deletes those still there). */
  readonly added: Set<string>;
  /** Accepts the description's or the real server's answer to an unknown fragment (deviation). */
  readonly expectNotFound: (reply: Reply) => void;
}

export const viewShape = v.object({ fragment: v.string({ nonEmpty: true }), is_pinned: v.bool(), name: v.nullable(v.string()) }, { exact: true });

/** `GET /navigation_views`, shape-checked. */
export async function listViews(client: ApiClient): Promise<Array<{ fragment: string; is_pinned: boolean; name: string | null }>> {
  const reply = await client.get('/navigation_views');
  return expectShape(expectSuccess(reply), v.object({ navigation_views: v.array(viewShape) }), 'body', reply).navigation_views;
}

/** A fragment as a URL path: each `/`-separated segment percent-encoded. */
export const fragmentPath = (fragment: string): string => `/navigation_views/${fragment.split('/').map(encodeURIComponent).join('/')}`;

async function expectViewsAsModel(model: ViewsModel, client: ApiClient): Promise<void> {
  const ours = (await listViews(client)).filter((view) => view.fragment.startsWith(`${model.prefix}/`));
  const listed = new Map(ours.map((view) => [view.fragment, view]));
  check(listed.size === ours.length, `a fragment is listed twice: ${JSON.stringify(ours)}`);
  for (const [fragment, state] of model.views) {
    const view = listed.get(fragment);
    if (!view) fail(`view ${JSON.stringify(fragment)} is not listed`);
    check(view.is_pinned === state.is_pinned && view.name === state.name, `view ${JSON.stringify(fragment)}: got ${JSON.stringify(view)}, expected ${JSON.stringify(state)}`);
  }
  for (const fragment of listed.keys()) check(model.views.has(fragment), `view ${JSON.stringify(fragment)} is listed but was deleted or never added`);
}

type ViewCommand = fc.AsyncCommand<ViewsModel, ViewsReal>;

const fragmentOf = (model: ViewsModel, slot: number): string => `${model.prefix}/v${slot}`;
const freshName = (model: ViewsModel): string => `${model.prefix} view ${++model.names}`;
const existing = (model: ViewsModel, index: number): [string, ViewState] => [...model.views][index % model.views.size] as [string, ViewState];

class AddView implements ViewCommand {
  constructor(readonly slot: number, readonly pinned: boolean) {}
  check = () => true;
  async run(model: ViewsModel, real: ViewsReal): Promise<void> {
    const fragment = fragmentOf(model, this.slot);
    const name = freshName(model);
    const reply = await real.client.post('/navigation_views', { fragment, is_pinned: this.pinned, name });
    if (model.views.has(fragment)) {
      expectError(reply, { status: 400, code: 'BAD_REQUEST' });
    } else {
      expectSuccess(reply, { ignored: [] });
      real.added.add(fragment);
      model.views.set(fragment, { is_pinned: this.pinned, name });
    }
    await expectViewsAsModel(model, real.client);
  }
  toString = () => `add(v${this.slot}, pinned=${this.pinned})`;
}

class Pin implements ViewCommand {
  constructor(readonly index: number, readonly pinned: boolean) {}
  check = (model: Readonly<ViewsModel>) => model.views.size > 0;
  async run(model: ViewsModel, real: ViewsReal): Promise<void> {
    const [fragment, state] = existing(model, this.index);
    expectSuccess(await real.client.patch(fragmentPath(fragment), { is_pinned: this.pinned }), { ignored: [] });
    model.views.set(fragment, { ...state, is_pinned: this.pinned });
    await expectViewsAsModel(model, real.client);
  }
  toString = () => `pin(#${this.index}, ${this.pinned})`;
}

class Rename implements ViewCommand {
  constructor(readonly index: number, readonly alsoPin: boolean | undefined) {}
  check = (model: Readonly<ViewsModel>) => model.views.size > 0;
  async run(model: ViewsModel, real: ViewsReal): Promise<void> {
    const [fragment, state] = existing(model, this.index);
    const name = freshName(model);
    expectSuccess(await real.client.patch(fragmentPath(fragment), { name, is_pinned: this.alsoPin }), { ignored: [] });
    model.views.set(fragment, { is_pinned: this.alsoPin ?? state.is_pinned, name });
    await expectViewsAsModel(model, real.client);
  }
  toString = () => `rename(#${this.index}${this.alsoPin === undefined ? '' : `, pinned=${this.alsoPin}`})`;
}

class RenameToTaken implements ViewCommand {
  constructor(readonly index: number, readonly other: number) {}
  check = (model: Readonly<ViewsModel>) => model.views.size > 1;
  async run(model: ViewsModel, real: ViewsReal): Promise<void> {
    const [fragment] = existing(model, this.index);
    const others = [...model.views].filter(([key]) => key !== fragment);
    const [, taken] = others[this.other % others.length] as [string, ViewState];
    expectError(await real.client.patch(fragmentPath(fragment), { name: taken.name }), { status: 400, code: 'BAD_REQUEST' });
    await expectViewsAsModel(model, real.client);
  }
  toString = () => `rename-to-taken(#${this.index}, #${this.other})`;
}

class Remove implements ViewCommand {
  constructor(readonly index: number) {}
  check = (model: Readonly<ViewsModel>) => model.views.size > 0;
  async run(model: ViewsModel, real: ViewsReal): Promise<void> {
    const [fragment] = existing(model, this.index);
    expectSuccess(await real.client.delete(fragmentPath(fragment)));
    model.views.delete(fragment);
    await expectViewsAsModel(model, real.client);
  }
  toString = () => `delete(#${this.index})`;
}

class TouchMissing implements ViewCommand {
  constructor(readonly slot: number, readonly viaDelete: boolean) {}
  check = (model: Readonly<ViewsModel>) => !model.views.has(fragmentOf(model as ViewsModel, this.slot));
  async run(model: ViewsModel, real: ViewsReal): Promise<void> {
    const path = fragmentPath(fragmentOf(model, this.slot));
    const reply = this.viaDelete ? await real.client.delete(path) : await real.client.patch(path, { is_pinned: true });
    real.expectNotFound(reply);
    await expectViewsAsModel(model, real.client);
  }
  toString = () => `${this.viaDelete ? 'delete' : 'pin'}-missing(v${this.slot})`;
}

/** The command arbitraries; fragments come from a space of four slots so adds collide. */
export function viewCommands(): Array<fc.Arbitrary<ViewCommand>> {
  const slot = fc.nat({ max: 3 });
  const index = fc.nat({ max: 20 });
  return [
    fc.tuple(slot, fc.boolean()).map(([s, pinned]) => new AddView(s, pinned)),
    fc.tuple(index, fc.boolean()).map(([i, pinned]) => new Pin(i, pinned)),
    fc.tuple(index, fc.option(fc.boolean(), { nil: undefined })).map(([i, pinned]) => new Rename(i, pinned)),
    fc.tuple(index, index).map(([i, j]) => new RenameToTaken(i, j)),
    index.map((i) => new Remove(i)),
    fc.tuple(slot, fc.boolean()).map(([s, viaDelete]) => new TouchMissing(s, viaDelete)),
  ];
}
