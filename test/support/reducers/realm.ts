/** `realm` events: `update` of one `realm_<property>`, `update_dict` of several. */
import { defineReducer, type State, unknownOp } from './registry.js';

defineReducer('realm', (state, event) => {
  if (event.op === 'update') {
    const key = `realm_${String(event.property)}`;
    if (key in state) state[key] = event.value;
    // The deprecated realm_mandatory_topics mirrors topics_policy (level 392); the real server
    // sends no event of its own for it, and register derives it the same way.
    if (event.property === 'topics_policy' && 'realm_mandatory_topics' in state) state.realm_mandatory_topics = event.value === 'disable_empty_topic';
    if (event.property === 'mandatory_topics' && 'realm_topics_policy' in state) state.realm_topics_policy = event.value === true ? 'disable_empty_topic' : 'allow_empty_topic';
  } else if (event.op === 'update_dict') {
    for (const [name, value] of Object.entries(event.data as State)) {
      const key = `realm_${name}`;
      if (key in state) state[key] = value;
    }
  } else unknownOp(event);
});
