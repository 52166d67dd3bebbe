/** `POST /realm/deactivate`: owners only (checked before parameters); `deletion_delay_days` from FL 332. */
import { deactivateRealm } from '../../../lib/actions/realm/realm-deactivation.js';
import { mustBeOwner } from '../../../lib/errors.js';
import { isOwner } from '../../../lib/entities/user.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { int, nullable } from '../../../lib/input/schema.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { json } from '../../app/params.js';

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
