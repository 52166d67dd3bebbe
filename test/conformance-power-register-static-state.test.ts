/**
 * The static register-state rules prove their power: against deliberately broken variants of our
 * server the named rule fails; against the unbroken server they pass at several feature levels.
 */
import { rewriteAnswer } from './support/power-helpers.js';
import { type Breakage, eachBreakageFailsItsRule, is, passesUnbroken } from './support/power-mutations.js';

const REGISTER = /^\/register$/;
const onRegister = (change: (body: Record<string, unknown>) => void) => rewriteAnswer((request) => is(request, 'POST', REGISTER), change);

const BREAKAGES: readonly Breakage[] = [
  { what: 'stop_words is missing', rule: 'static-state/stop-words-when-asked', mutate: onRegister((body) => void delete body.stop_words) },
  { what: 'stop_words holds a number', rule: 'static-state/stop-words-when-asked', mutate: onRegister((body) => { if (Array.isArray(body.stop_words)) body.stop_words = [...body.stop_words, 1]; }) },
  { what: 'stop_words is one string', rule: 'static-state/stop-words-when-asked', mutate: onRegister((body) => { if (Array.isArray(body.stop_words)) body.stop_words = body.stop_words.join(' '); }) },
  { what: 'stop_words comes unasked', rule: 'static-state/stop-words-when-asked', mutate: onRegister((body) => { body.stop_words ??= ['the']; }) },
  { what: 'an embedded bot config holds a number', rule: 'static-state/embedded-bots-shape', mutate: onRegister((body) => { if (Array.isArray(body.realm_embedded_bots)) body.realm_embedded_bots = [{ name: 'giphy', config: { key: 1 } }]; }) },
  { what: 'an embedded bot is listed twice', rule: 'static-state/embedded-bots-shape', mutate: onRegister((body) => { if (Array.isArray(body.realm_embedded_bots)) body.realm_embedded_bots = [...body.realm_embedded_bots, body.realm_embedded_bots[0]]; }) },
  { what: 'realm_embedded_bots is missing', rule: 'static-state/embedded-bots-shape', mutate: onRegister((body) => void delete body.realm_embedded_bots) },
];

passesUnbroken('every static register-state rule', ['static-state/*'], [415, 1], 1, 2);

eachBreakageFailsItsRule(BREAKAGES, 1);
