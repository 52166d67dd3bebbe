/** Parameter declarations for the personal settings of `lib/settings/user-settings.ts` (section 4.3). */
import type { SettingValue } from '../../../lib/entities/user.js';
import { allowedValuesAt, defaultsAtLevel } from '../../../lib/queries/realm/user-settings-defaults.js';
import { bool, int, invalidValue } from '../../../lib/input/schema.js';
import { EMOJISET_ALIASES, EMOJISETS, type SettingDefinition } from '../../../lib/settings/user-settings.js';
import type { World } from '../../../lib/state/world.js';
import { json, literalStr, type Param, str } from '../../app/params.js';

/** Patchable settings existing at the emulated level, in the real server's (alphabetical) order. */
export function settingsAtLevel(world: World): SettingDefinition[] {
  return defaultsAtLevel(world)
    .filter((definition) => definition.patchable)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** `emojiset`, with the description's `emojiset_a` / `emojiset_b` accepted for google / twitter. */
const emojiset = (): Param<SettingValue> =>
  str().map((raw, name) => {
    const value = EMOJISET_ALIASES.get(raw) ?? raw;
    if (!(EMOJISETS as readonly string[]).includes(value)) throw invalidValue(name, 'Not in the list of possible values');
    return value;
  });

/**
 * How one setting is read: booleans and integers JSON-encoded (integers with a fixed set get
 * pydantic's `Value error` text), strings raw; Literal-typed strings answer `Invalid <name>`.
 */
export function settingParam(world: World, definition: SettingDefinition): Param<SettingValue> {
  if (definition.kind === 'bool') return json(bool);
  if (definition.kind === 'int') {
    const allowed = allowedValuesAt(world, definition);
    if (!allowed) return json(int);
    return json(int).check((value, name) => {
      if (!allowed.includes(value)) throw invalidValue(name, 'Not in the list of possible values');
    });
  }
  if (definition.name === 'emojiset') return emojiset();
  // A free string at parse time; unknown sounds are refused afterwards with their own message.
  if (definition.name === 'notification_sound') return str();
  if (definition.allowed) return literalStr(...(definition.allowed as readonly string[]));
  return str();
}
