/** The start banner of `chat-server`: where it listens, the level, and how to log in. */
import type { User } from '../lib/entities/user.js';
import type { World } from '../lib/state/world.js';
import { DEFAULT_SAVE_DELAY_MS } from '../server/dev/state-saver.js';

export interface BannerInfo {
  readonly version: string;
  readonly url: string;
  readonly world: World;
  readonly devEndpoints: boolean;
  readonly statePath?: string;
  /** Longest wait from a change to its save (0: saved on stop only). */
  readonly saveDelayMs?: number;
  readonly stateLoaded: boolean;
  readonly log: boolean;
  readonly cors: boolean;
}

/** An active human administrator (else an owner, else any active human): the user the banner suggests (and `--exec` runs as). */
export function devUser(world: World): { email: string; apiKey: string; role: string } | undefined {
  // One pass that stops at the first administrator: a large realm has 100,000 users.
  let owner: User | undefined;
  let first: User | undefined;
  let admin: User | undefined;
  for (const user of world.users.values()) {
    if (!user.isActive || user.isBot || user.isSystemBot) continue;
    first ??= user;
    if (user.role === 100) owner ??= user;
    if (user.role === 200) {
      admin = user;
      break;
    }
  }
  admin ??= owner ?? first;
  if (!admin) return undefined;
  return { email: admin.deliveryEmail, apiKey: admin.apiKey, role: admin.role === 100 ? 'owner' : admin.role === 200 ? 'administrator' : 'member' };
}

export function banner(info: BannerInfo): string {
  const api = `${info.url}/api/v1`;
  const user = devUser(info.world);
  const lines = [`chat-server ${info.version} listening on ${info.url} (feature level ${info.world.featureLevel}; API under ${api})`];
  if (user && info.devEndpoints) {
    lines.push(
      `  log in as a development user, e.g. ${user.email} (${user.role}):`,
      `    curl -sS -X POST ${api}/dev_fetch_api_key -d username=${user.email}`,
      `    curl -sS -u ${user.email}:API_KEY ${api}/users/me`,
      `  every development user: curl -sS ${api}/dev_list_users`,
      `  start over: curl -sS -X POST ${info.url}/__dev/reset`,
      `  see the realm and a live log: ${info.url}/ (steer it: faults, clock, queues, state under ${info.url}/__dev/)`,
    );
  } else if (!info.devEndpoints) {
    lines.push('  development endpoints are off (--no-dev-endpoints): log in with POST /api/v1/fetch_api_key');
  }
  if (info.statePath !== undefined) {
    const when = info.saveDelayMs === 0 ? 'saved on Ctrl-C or SIGTERM' : `saved about ${(info.saveDelayMs ?? DEFAULT_SAVE_DELAY_MS) / 1000} s after changes and on Ctrl-C or SIGTERM`;
    lines.push(`  state: ${info.stateLoaded ? 'loaded from' : 'new; will be saved to'} ${info.statePath} (${when})`);
  }
  const extras = [info.log ? 'request log on' : '', info.cors ? 'CORS on' : ''].filter((text) => text !== '');
  if (extras.length > 0) lines.push(`  ${extras.join(', ')}`);
  lines.push('  Ctrl-C stops the server');
  return `${lines.join('\n')}\n`;
}
