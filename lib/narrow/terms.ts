/**
 * The `narrow` parameter of `GET /messages`, `GET /messages/matches_narrow` and
 * `POST /messages/flags/narrow`: a JSON list of terms, each either the legacy
 * `[operator, operand]` string pair or `{"operator", "operand", "negated"}`, validated with the
 * real server's texts (its `NarrowParameter` model).
 */
import { MAX_NARROW_TERMS, MAX_USER_IDS, tooManyItems } from '../input/limits.js';
import { ApiError, badRequest } from '../errors.js';
import { FEATURES } from '../features/feature-levels.js';
import type { JsonValue } from '../input/json.js';
import { invalidValue, itemPath, keyPath, schema, type Schema } from '../input/schema.js';
import type { World } from '../state/world.js';

/** A term's operand: a string, an integer (IDs), or a list of user IDs (`dm`). */
export type Operand = string | number | readonly number[];

export interface NarrowTerm {
  readonly operator: string;
  readonly operand: Operand;
  readonly negated: boolean;
}

/** Operators whose operand may be an integer ID. */
const ID_OPERATORS = new Set(['channel', 'stream', 'sender', 'group-pm-with', 'dm-including']);
/** Operators whose operand may be a list of user IDs. */
const ID_LIST_OPERATORS = new Set(['pm-with', 'dm']);

const isInteger = (value: JsonValue): value is number => typeof value === 'number';

/** The operand check the real server picks by operator (`check_string_or_int`, ...). */
function checkOperand(world: World, operator: JsonValue, operand: JsonValue): Operand {
  const op = typeof operator === 'string' ? operator : '';
  const integerId = (op === 'id' && world.has(FEATURES.NARROW_INTEGER_ID)) || (op === 'with' && world.has(FEATURES.NARROW_WITH));
  if (ID_OPERATORS.has(op) || integerId) {
    if (typeof operand === 'string' || isInteger(operand)) return operand;
    throw badRequest('operand is not a string or integer');
  }
  if (ID_LIST_OPERATORS.has(op)) {
    if (typeof operand === 'string') return operand;
    if (!Array.isArray(operand)) throw badRequest('operand is not a string or an integer list');
    if (operand.length > MAX_USER_IDS) throw tooManyItems('operand', MAX_USER_IDS);
    return operand.map((item, index) => {
      if (!isInteger(item)) throw badRequest(`operand[${index}] is not an integer`);
      return item;
    });
  }
  if (typeof operand !== 'string') throw badRequest('operand is not a string');
  if (op === 'search' && operand.trim() === '') throw badRequest('operand cannot be blank.');
  return operand;
}

function parseTerm(world: World, element: JsonValue, path: string): NarrowTerm {
  if (Array.isArray(element)) {
    const [operator, operand] = element;
    if (element.length !== 2 || typeof operator !== 'string' || typeof operand !== 'string') {
      throw invalidValue(path, 'element is not a string pair');
    }
    return { operator, operand: checkOperand(world, operator, operand), negated: false };
  }
  if (!(element instanceof Map)) throw invalidValue(path, 'dict or list required');
  const operand = element.get('operand');
  const operator = element.get('operator');
  if (operand === undefined || operand === null) throw invalidValue(path, 'operand is missing');
  if (operator === undefined || operator === null) throw invalidValue(path, 'operator is missing');
  if (typeof operator !== 'string') throw badRequest(`${keyPath(path, 'operator')} is not a string`);
  const negated = element.get('negated') ?? false;
  if (typeof negated !== 'boolean') throw badRequest(`${keyPath(path, 'negated')} is not a boolean`);
  return { operator, operand: checkOperand(world, operator, operand), negated };
}

/**
 * The schema of a `narrow` parameter at the world's level. JSON `null` and `[]` both mean "no
 * narrow" (the combined feed), as on the real server.
 */
export function narrowParameter(world: World, options: { nullable: boolean }): Schema<NarrowTerm[]> {
  return schema((value, path) => {
    if (value === null && options.nullable) return [];
    if (!Array.isArray(value)) throw badRequest(`${path} is not a list`);
    if (value.length > MAX_NARROW_TERMS) throw tooManyItems(path, MAX_NARROW_TERMS);
    return value.map((element, index) => parseTerm(world, element, itemPath(path, index)));
  });
}

/** The real server's `BAD_NARROW` error: `Invalid narrow operator: <desc>`, with `desc`. */
export const badNarrow = (desc: string): ApiError => new ApiError('BAD_NARROW', 400, `Invalid narrow operator: ${desc}`, { desc });

/** `Invalid narrow operator combination: <desc>` (code `BAD_NARROW`). */
export const badNarrowCombination = (desc: string): ApiError =>
  new ApiError('BAD_NARROW', 400, `Invalid narrow operator combination: ${desc}`, { desc });

/** Python's `str()` of an operand, as error texts show it (`[1, 2]` for a list). */
export const operandText = (operand: Operand): string =>
  typeof operand === 'object' ? `[${operand.join(', ')}]` : String(operand);
