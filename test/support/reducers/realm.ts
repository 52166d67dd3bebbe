/** `realm` events: `update` of one `realm_<property>`, `update_dict` of several. */
import { defineReducer, type State, unknownOp } from './registry.js';

defineReducer('realm', (state, event) => {
  if (event.op === 'update') {
    const key = `realm_${String(event.property)}`;
    if (key in state) state[key] = event.value;
  } else if (event.op === 'update_dict') {
    for (const [name, value] of Object.entries(event.data as State)) {
      const key = `realm_${name}`;
      if (key in state) state[key] = value;
    }
  } else unknownOp(event);
});
