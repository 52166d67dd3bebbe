/**
 * Event convergence against any server: for random action sequences by the run's identities,
 * each observer's state built from its `POST /register` answer plus the events its queue got
 * equals a fresh register (the real server's test_events.py, black-box). See
 * conformance/convergence/ for the replay, the comparison and the report.
 */
import { messagesFamily } from '../../convergence/families/messages.js';
import { personalFamily } from '../../convergence/families/personal.js';
import { groupsFamily } from '../../convergence/families/groups.js';
import { channelsFamily } from '../../convergence/families/channels.js';
import type { Rule } from '../types.js';
import { convergenceRule } from './event-convergence-support.js';

export const rules: readonly Rule[] = [convergenceRule(messagesFamily), convergenceRule(personalFamily), convergenceRule(groupsFamily), convergenceRule(channelsFamily)];
