/**
 * Organization exports, for administrators (checked before parameters): `GET|POST /export/realm`,
 * `DELETE /export/realm/{export_id}` and `GET /export/realm/consents` (FL 295).
 */
import { deleteRealmExport, requestRealmExport } from '../../../lib/actions/realm/exports.js';
import { mustBeAdministrator } from '../../../lib/errors.js';
import { isAdministrator } from '../../../lib/entities/user.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { exportConsents, realmExportsState } from '../../../lib/queries/realm/exports.js';
import { int, oneOf } from '../../../lib/input/schema.js';
import { type AuthedContext, authed, type RouteDef } from '../../app/endpoint.js';
import { json } from '../../app/params.js';

const adminOnly = ({ user }: AuthedContext): void => {
  if (!isAdministrator(user)) throw mustBeAdministrator();
};

const listExports = authed({
  gate: adminOnly,
  reportsIgnored: false,
  params: {},
  run: ({ world, app, request }) => ({ exports: realmExportsState(world, app.realmUrl(request)) }),
});

const startExport = authed({
  gate: adminOnly,
  params: { export_type: json(oneOf(int, [1, 2])).default(1).availableFrom(FEATURES.EXPORT_TYPE, { otherwise: 1 }) },
  run: ({ world, user, app, request }, { export_type }) => ({ id: requestRealmExport(world, user.id, export_type, app.realmUrl(request)) }),
});

const deleteExport = authed({
  gate: adminOnly,
  reportsIgnored: false,
  params: {},
  run({ world, path, app, request }) {
    deleteRealmExport(world, Number(path.get('export_id')), app.realmUrl(request));
    return {};
  },
});

const consents = authed({
  since: FEATURES.EXPORT_CONSENTS,
  gate: adminOnly,
  reportsIgnored: false,
  params: {},
  run: ({ world }) => ({ export_consents: exportConsents(world) }),
});

export const routes: RouteDef[] = [
  { path: '/export/realm', methods: { GET: listExports, POST: startExport } },
  { path: '/export/realm/consents', methods: { GET: consents } },
  { path: '/export/realm/{export_id:int}', methods: { DELETE: deleteExport } },
];
