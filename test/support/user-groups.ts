/** Helpers shared by the user-group tests. */
import type { SystemGroupName } from '../../lib/entities/group.js';
import type { TestServer } from './harness.js';

/** The ID of a system group of the test realm (`role:members`, ...). */
export const sys = (s: TestServer, name: SystemGroupName): number => s.world.systemGroupId(name);
