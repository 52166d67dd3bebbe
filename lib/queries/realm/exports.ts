/** Organization data exports in their API shape (`GET /export/realm` and the `realm_export` event). */
import { FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';

const seconds = (ms: number): number => Math.floor(ms / 1000);

/** Every export by ID; `export_url` once finished, `deleted_timestamp` once deleted. */
export function realmExportsState(world: World, realmUrl: string): Record<string, unknown>[] {
  return [...world.realmExports.values()]
    .sort((a, b) => a.id - b.id)
    .map((e) => {
      const out: Record<string, unknown> = {
        id: e.id,
        export_time: seconds(e.requestedAt),
        acting_user_id: e.actingUserId,
        export_url: e.status === 'succeeded' && e.exportPath !== null ? `${realmUrl}/user_avatars${e.exportPath}` : null,
        deleted_timestamp: e.deletedAt === null ? null : seconds(e.deletedAt),
        failed_timestamp: null,
        pending: e.status === 'requested',
      };
      if (world.has(FEATURES.EXPORT_TYPE)) out.export_type = e.exportType;
      return out;
    });
}

/** Each active human member and whether they allow exporting their private data (FL 295). */
export function exportConsents(world: World): Array<{ user_id: number; consented: boolean }> {
  return [...world.users.values()]
    .filter((u) => u.isActive && !u.isBot)
    .sort((a, b) => a.id - b.id)
    .map((u) => ({ user_id: u.id, consented: u.settings.get('allow_private_data_export') === true }));
}
