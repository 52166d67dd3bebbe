/** Reading end-to-end-encrypted push registrations (sections 2.9, 4.12; behaviour reference §8). */
import type { PushRegistration } from '../../entities/personal.js';
import type { User } from '../../entities/user.js';
import type { World } from '../../state/world.js';

export function findRegistration(world: World, userId: number, pushAccountId: number): PushRegistration | undefined {
  return world.pushRegistrations.find((r) => r.userId === userId && r.pushAccountId === pushAccountId);
}

export interface ApiPushDevice {
  readonly status: PushRegistration['status'];
  readonly error_code: string | null;
}

/**
 * `push_devices` as the register response carries it (FL 406): the user's registrations keyed
 * by push account ID as a string, each `{status, error_code}`.
 */
export function pushDevicesState(world: World, user: User): Record<string, ApiPushDevice> {
  return Object.fromEntries(
    world.pushRegistrations
      .filter((r) => r.userId === user.id)
      .map((r) => [String(r.pushAccountId), { status: r.status, error_code: r.errorCode ?? null }]),
  );
}
