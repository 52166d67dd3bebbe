/**
 * Every channel-administration rule, from its files: listing (streams-list.ts), reading one
 * channel (streams-get.ts), changing it (streams-update*.ts), who administers and archiving
 * (streams-archive.ts).
 */
import type { Rule } from '../types.js';
import { rules as archive } from './streams-archive.js';
import { rules as events } from './streams-events.js';
import { rules as get } from './streams-get.js';
import { rules as list } from './streams-list.js';
import { rules as update } from './streams-update.js';
import { rules as updateGroups } from './streams-update-groups.js';
import { rules as updateSettings } from './streams-update-settings.js';

export const rules: readonly Rule[] = [...list, ...get, ...update, ...updateSettings, ...updateGroups, ...events, ...archive];
