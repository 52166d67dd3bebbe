/**
 * The realm's email domains: `GET /realm/domains` for every account, and `POST /realm/domains`,
 * `PATCH`/`DELETE /realm/domains/{domain}` for owners (administrators below FL 143), checked
 * before any parameter. `domain` is a plain string at every level (JSON-encoded before FL 63).
 */
import { addRealmDomain, changeRealmDomain, removeRealmDomain } from '../../../lib/actions/realm/realm-domains.js';
import { isAdministrator, isOwner } from '../../../lib/entities/user.js';
import { mustBeAdministrator, mustBeOwner } from '../../../lib/errors.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { bool } from '../../../lib/input/schema.js';
import { realmDomainsState } from '../../../lib/queries/realm/realm-domains.js';
import { type AuthedContext, authed, type RouteDef } from '../../app/endpoint.js';
import { json, str } from '../../app/params.js';

const ownersOnly = ({ world, user }: AuthedContext): void => {
  if (!world.has(FEATURES.REALM_DOMAINS_OWNER_ONLY)) {
    if (!isAdministrator(user)) throw mustBeAdministrator();
  } else if (!isOwner(user)) throw mustBeOwner();
};

const pathDomain = (path: ReadonlyMap<string, string>): string => path.get('domain') ?? '';

const list = authed({
  params: {},
  run: ({ world }) => ({ domains: realmDomainsState(world) }),
});

const add = authed({
  gate: ownersOnly,
  params: { allow_subdomains: json(bool).required(), domain: str().required() },
  run({ world }, args) {
    const added = addRealmDomain(world, args.domain, args.allow_subdomains);
    return { new_domain: [added.id, added.domain] };
  },
});

const change = authed({
  gate: ownersOnly,
  params: { allow_subdomains: json(bool).required() },
  run({ world, path }, args) {
    changeRealmDomain(world, pathDomain(path), args.allow_subdomains);
    return {};
  },
});

const remove = authed({
  gate: ownersOnly,
  params: {},
  run({ world, path }) {
    removeRealmDomain(world, pathDomain(path));
    return {};
  },
});

export const routes: RouteDef[] = [
  { path: '/realm/domains', methods: { GET: list, POST: add } },
  { path: '/realm/domains/{domain}', methods: { PATCH: change, DELETE: remove } },
];
