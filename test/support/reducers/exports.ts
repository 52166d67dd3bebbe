/** `realm_export` carries the whole export list; register has no export state, so clients refetch or keep it apart. */
import { defineReducer } from './registry.js';

defineReducer('realm_export', () => undefined);
/** `realm_export_consent` goes to administrators; the real `apply_event` changes nothing for it. */
defineReducer('realm_export_consent', () => undefined);
