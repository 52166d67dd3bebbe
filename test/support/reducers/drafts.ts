/** `drafts` events: the owner's synchronized drafts, most recently edited first. */
import { defineReducer, listOf, unknownOp } from './registry.js';

type Draft = { id: number; timestamp: number } & Record<string, unknown>;
const newestFirst = (drafts: Draft[]): Draft[] => drafts.sort((a, b) => b.timestamp - a.timestamp || b.id - a.id);

defineReducer('drafts', (state, event) => {
  const drafts = listOf<Draft>(state, 'drafts');
  if (!drafts) return;
  if (event.op === 'add') drafts.push(...(event.drafts as Draft[]));
  else if (event.op === 'update') {
    const draft = event.draft as Draft;
    const index = drafts.findIndex((d) => d.id === draft.id);
    if (index >= 0) drafts[index] = draft;
    else drafts.push(draft);
  } else if (event.op === 'remove') {
    const index = drafts.findIndex((d) => d.id === event.draft_id);
    if (index >= 0) drafts.splice(index, 1);
  } else unknownOp(event);
  newestFirst(drafts);
});
