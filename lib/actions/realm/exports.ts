/**
 * Organization data exports, simulated: a request is recorded as pending (one `realm_export`
 * event) and completes at once (a second event with its `export_url`); no tarball is built.
 * Events go to the realm's human administrators, as the real server's `notify_realm_export`.
 */
import { badRequest } from '../../errors.js';
import type { RealmExport } from '../../entities/realm-export.js';
import { realmExportsState } from '../../queries/realm/exports.js';
import type { World } from '../../state/world.js';
import { humanAdministratorIds } from './export-consent.js';

/** At most this many exports per 7 days, as the real server allows. */
const EXPORTS_PER_WEEK = 5;
const WEEK_MS = 7 * 24 * 3600 * 1000;

function notify(world: World, realmUrl: string): void {
  world.events.send({ type: 'realm_export', exports: realmExportsState(world, realmUrl) }, humanAdministratorIds(world));
}

/** Starts (and finishes) an export; returns its ID. */
export function requestRealmExport(world: World, actorId: number, exportType: number, realmUrl: string): number {
  const since = world.now() - WEEK_MS;
  const recent = [...world.realmExports.values()].filter((e) => e.requestedAt >= since).length;
  if (recent >= EXPORTS_PER_WEEK) throw badRequest('Exceeded rate limit.');
  const id = world.ids.next('realmExport');
  const row: RealmExport = { id, actingUserId: actorId, exportType, requestedAt: world.now(), status: 'requested', exportPath: null, deletedAt: null };
  world.realmExports.set(id, row);
  notify(world, realmUrl);
  row.status = 'succeeded';
  row.exportPath = `/exports/${world.realm.id}/${id.toString(16).padStart(8, '0')}/zulip-export-${id}.tar.gz`;
  notify(world, realmUrl);
  return id;
}

export function deleteRealmExport(world: World, id: number, realmUrl: string): void {
  const row = world.realmExports.get(id);
  if (!row) throw badRequest('Invalid data export ID');
  if (row.status === 'deleted') throw badRequest('Export already deleted');
  if (row.status === 'requested') throw badRequest('Export still in progress');
  row.status = 'deleted';
  row.deletedAt = world.now();
  notify(world, realmUrl);
}
