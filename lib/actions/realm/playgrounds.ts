/**
 * Adding and removing code playgrounds, with the real server's model validation (every field
 * error, then the template's variables, then uniqueness; `msg` is the first, `errors` all of
 * them). Every change sends the complete list to every active account of the realm.
 */
import { badRequest } from '../../errors.js';
import { FEATURES } from '../../features/feature-levels.js';
import { activeRealmUserIds } from '../../queries/users/access.js';
import { playgroundsState } from '../../queries/realm/playgrounds.js';
import { parseUriTemplate } from '../../patterns/uri-template.js';
import type { World } from '../../state/world.js';

const BLANK = 'This field cannot be blank.';
const DUPLICATE = 'Realm playground with this Realm, Pygments language and Name already exists.';

/** A new playground, already stripped; `urlTemplate` is the URL prefix before FL 196. */
export interface PlaygroundInput {
  readonly name: string;
  readonly pygmentsLanguage: string;
  readonly urlTemplate: string;
}

function notify(world: World): void {
  world.events.send({ type: 'realm_playgrounds', realm_playgrounds: playgroundsState(world) }, activeRealmUserIds(world));
}

/** The template's own errors and the `code`-variable rule (`RealmPlayground.clean`). */
function templateErrors(template: string): { field: string[]; general: string[] } {
  if (template === '') return { field: [BLANK], general: [] };
  const parsed = parseUriTemplate(template);
  if (!parsed.ok) return { field: ['Invalid URL template.'], general: [] };
  const names = new Set(parsed.variableNames);
  if (!names.has('code')) return { field: [], general: ['Missing the required variable "code" in the URL template'] };
  if (names.size !== 1) return { field: [], general: ['"code" should be the only variable present in the URL template'] };
  return { field: [], general: [] };
}

/** Adds a playground and returns its ID. */
export function addPlayground(world: World, input: PlaygroundInput): number {
  const templateField = world.has(FEATURES.PLAYGROUND_URL_TEMPLATE) ? 'url_template' : 'url_prefix';
  const template = world.has(FEATURES.PLAYGROUND_URL_TEMPLATE) ? templateErrors(input.urlTemplate) : { field: input.urlTemplate === '' ? [BLANK] : [], general: [] };
  const errors: Array<[string, string[]]> = [];
  if (template.field.length > 0) errors.push([templateField, template.field]);
  if (input.name === '') errors.push(['name', [BLANK]]);
  if (input.pygmentsLanguage === '') errors.push(['pygments_language', [BLANK]]);
  const general = [...template.general];
  // Uniqueness is checked only when both fields of the unique pair passed their own checks.
  const pairValid = input.name !== '' && input.pygmentsLanguage !== '';
  const taken = [...world.realmPlaygrounds.values()].some((p) => p.name === input.name && p.pygmentsLanguage === input.pygmentsLanguage);
  if (pairValid && taken) general.push(DUPLICATE);
  if (general.length > 0) errors.push(['__all__', general]);
  const first = errors[0]?.[1][0];
  if (first !== undefined) throw badRequest(first, { errors: Object.fromEntries(errors) });

  const id = world.ids.next('playground');
  world.realmPlaygrounds.set(id, { id, ...input });
  notify(world);
  return id;
}

export function removePlayground(world: World, id: number): void {
  if (!world.realmPlaygrounds.delete(id)) throw badRequest('Invalid playground');
  notify(world);
}
