/**
 * Register state that is the same for every user and never changes while the server runs, so no
 * event updates it (zerver/lib/events.py `fetch_initial_state_data`): the search stop words
 * (`read_stop_words`) and the embedded bots with their configuration templates.
 */
import { EMBEDDED_BOTS } from '../../data/embedded-bots.js';
import { SEARCH_STOP_WORDS } from '../../data/search-stop-words.js';
import type { StateFunction } from './state-fields.js';

export const STATIC_STATE_FUNCTIONS: ReadonlyArray<readonly [string, StateFunction]> = [
  ['realm_embedded_bots', () => ({ realm_embedded_bots: EMBEDDED_BOTS.map((bot) => ({ name: bot.name, config: { ...bot.config } })) })],
  ['stop_words', () => ({ stop_words: [...SEARCH_STOP_WORDS] })],
];
