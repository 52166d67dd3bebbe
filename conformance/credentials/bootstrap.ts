/**
 * Credentials on a development server (ours or Zulip's): `dev_list_users` names the users,
 * `POST /dev_fetch_api_key` gives any user's key without a password (behaviour reference 5.6).
 * Only the users needed for the missing roles get a key fetched; roles come from `GET /users`
 * as an administrator (never from fixed IDs or names).
 */
import type { ApiClient } from '../client/api-client.js';
import { sameSite } from './sources.js';
import { type Credential, type Role, ROLE_BY_CODE } from './types.js';

interface ListedUser {
  readonly email: string;
  readonly realmUrl: string | undefined;
}

function listed(value: unknown): ListedUser[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: unknown) => {
    if (entry === null || typeof entry !== 'object') return [];
    const record = entry as Record<string, unknown>;
    if (typeof record.email !== 'string') return [];
    const url = record.realm_url ?? record.realm_uri;
    return [{ email: record.email, realmUrl: typeof url === 'string' ? url : undefined }];
  });
}

/** `dev_list_users`, restricted to the target's realm when the entries say which realm. */
export async function listDevUsers(anonymous: ApiClient, realmUrl: string | undefined): Promise<{ admins: ListedUser[]; users: ListedUser[] } | undefined> {
  const reply = await anonymous.get('/dev_list_users');
  if (reply.status !== 200 || reply.body?.result !== 'success') return undefined;
  const inRealm = (list: ListedUser[]) => {
    if (!realmUrl) return list;
    const mine = list.filter((user) => user.realmUrl !== undefined && sameSite(user.realmUrl, realmUrl));
    return mine.length > 0 ? mine : list;
  };
  return { admins: inRealm(listed(reply.body.direct_admins)), users: inRealm(listed(reply.body.direct_users)) };
}

export async function devFetchKey(anonymous: ApiClient, email: string): Promise<Credential | undefined> {
  const reply = await anonymous.post('/dev_fetch_api_key', { username: email });
  const key = reply.body?.api_key;
  if (reply.status !== 200 || typeof key !== 'string') return undefined;
  const returned = reply.body?.email;
  return { email: typeof returned === 'string' ? returned : email, apiKey: key, source: 'dev-bootstrap' };
}

/** How many users of each role the suite wants (two members). */
const WANTED: ReadonlyArray<readonly [Role, number]> = [
  ['admin', 1],
  ['owner', 1],
  ['moderator', 1],
  ['member', 2],
  ['guest', 1],
];

/**
 * Development credentials for the roles `have` lacks. Returns what it could get; an empty list
 * when the target has no development login.
 */
export async function bootstrapDevCredentials(anonymous: ApiClient, realmUrl: string | undefined, have: ReadonlyMap<Role, number>, knownEmails: ReadonlySet<string>): Promise<Credential[]> {
  const list = await listDevUsers(anonymous, realmUrl);
  if (!list) return [];
  const devEmails = new Set([...list.admins, ...list.users].map((user) => user.email.toLowerCase()));
  const adminEntry = [...list.admins].sort((a, b) => a.email.localeCompare(b.email))[0];
  if (!adminEntry) return [];
  const admin = await devFetchKey(anonymous, adminEntry.email);
  if (!admin) return [];
  const members = await anonymous.withCredentials(admin.email, admin.apiKey).get('/users');
  const rows = Array.isArray(members.body?.members) ? (members.body.members as unknown[]) : [];
  const candidates = new Map<Role, string[]>();
  for (const row of rows) {
    const user = row as Record<string, unknown>;
    const email = typeof user.delivery_email === 'string' ? user.delivery_email : undefined;
    const role = ROLE_BY_CODE.get(Number(user.role));
    if (!email || !role || user.is_bot === true || user.is_active === false || !devEmails.has(email.toLowerCase())) continue;
    candidates.set(role, [...(candidates.get(role) ?? []), email]);
  }
  const chosen: Credential[] = [];
  const taken = new Set([...knownEmails].map((email) => email.toLowerCase()));
  for (const [role, count] of WANTED) {
    let missing = count - (have.get(role) ?? 0);
    const pool = [...(candidates.get(role) ?? [])].sort((a, b) => a.localeCompare(b));
    for (const email of pool) {
      if (missing <= 0) break;
      if (taken.has(email.toLowerCase())) continue;
      const credential = email.toLowerCase() === admin.email.toLowerCase() ? admin : await devFetchKey(anonymous, email);
      if (!credential) continue;
      taken.add(email.toLowerCase());
      chosen.push(credential);
      missing--;
    }
  }
  return chosen;
}
