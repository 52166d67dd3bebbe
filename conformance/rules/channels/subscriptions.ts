/**
 * Every subscription rule (section 4.1), from its files: subscribing (subscribe.ts), limits
 * (subscribe-limits.ts), enumerated settings (subscribe-settings.ts, subscribe-group-settings.ts),
 * rights by role (subscribe-roles.ts), repeated operations (subscribe-repeat.ts), who may
 * subscribe whom (subscribe-permissions.ts), listing and get_stream_id (subscriptions-list.ts),
 * unsubscribing (unsubscribe.ts) and the model-based sequence (../model/subscriptions.ts).
 */
import { subscriptionModelRule } from '../../model/subscriptions.js';
import { rules as subscribe } from './subscribe.js';
import { rules as groupSettings } from './subscribe-group-settings.js';
import { rules as limits } from './subscribe-limits.js';
import { rules as repeat } from './subscribe-repeat.js';
import { rules as roles } from './subscribe-roles.js';
import { rules as settings } from './subscribe-settings.js';
import { rules as permissions } from './subscribe-permissions.js';
import { rules as listing } from './subscriptions-list.js';
import type { Rule } from '../types.js';
import { rules as unsubscribe } from './unsubscribe.js';

export const rules: readonly Rule[] = [...subscribe, ...limits, ...settings, ...groupSettings, ...roles, ...repeat, ...permissions, ...listing, ...unsubscribe, subscriptionModelRule];
