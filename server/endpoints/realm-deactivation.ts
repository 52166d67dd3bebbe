/** `POST /realm/deactivate`: owners only (checked before parameters); `deletion_delay_days` from FL 332. */
import { deactivateRealm } from '../../lib/actions/realm-deactivation.js';
import { mustBeOwner } from '../../lib/errors.js';
import { isOwner } from '../../lib/entities/user.js';
import { FEATURES } from '../../lib/features.js';
import { int, nullable } from '../../lib/schema.js';
import { authed, type RouteDef } from '../endpoint.js';
import { json } from '../params.js';

const deactivate = authed({
  gate({ user }) {
    if (!isOwner(user)) throw mustBeOwner();
  },
  params: { deletion_delay_days: json(nullable(int)).default(null).availableFrom(FEATURES.REALM_DELETION_DAYS, { otherwise: null }) },
  run({ world, user }, { deletion_delay_days }) {
    deactivateRealm(world, user, deletion_delay_days);
    return {};
  },
});

export const routes: RouteDef[] = [{ path: '/realm/deactivate', methods: { POST: deactivate } }];
