/**
 * Linkifiers: `GET /realm/linkifiers` (4.19), `POST /realm/filters` (4.16),
 * `PATCH|DELETE /realm/filters/{filter_id}`, `PATCH /realm/linkifiers` (reorder). Changes are
 * for administrators only; that gate runs before any parameter is read (behaviour reference §0.2).
 */
import { addLinkifier, type LinkifierInput, removeLinkifier, reorderLinkifiers, updateLinkifier } from '../../../lib/actions/realm/linkifiers.js';
import { mustBeAdministrator } from '../../../lib/errors.js';
import { isAdministrator } from '../../../lib/entities/user.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { linkifiersState, realmFiltersState } from '../../../lib/queries/realm/linkifiers.js';
import { int, list } from '../../../lib/input/schema.js';
import { type AuthedContext, authed, type RouteDef } from '../../app/endpoint.js';
import { json, str } from '../../app/params.js';

const adminOnly = ({ user }: AuthedContext): void => {
  if (!isAdministrator(user)) throw mustBeAdministrator();
};

/**
 * `pattern` and the target are both required. Since FL 176 the target is `url_template`;
 * before, it was `url_format_string` (a `%(name)s` format string). Each exists only on its side
 * of that level, so the other one is reported in `ignored_parameters_unsupported`.
 */
const linkifierParams = {
  pattern: str({ strip: true }).required(),
  url_template: str({ strip: true }).required().availableFrom(FEATURES.LINKIFIER_URL_TEMPLATE),
  url_format_string: str({ strip: true }).required().availableBefore(FEATURES.LINKIFIER_URL_TEMPLATE),
};

function linkifierInput(args: { pattern: string; url_template: string | undefined; url_format_string: string | undefined }): LinkifierInput {
  // Exactly one of the two exists at any level, and it is required there.
  const target = args.url_template ?? args.url_format_string;
  if (target === undefined) throw new Error('a linkifier target parameter exists at every level');
  return { pattern: args.pattern, target };
}

const getLinkifiers = authed({
  since: FEATURES.LINKIFIERS_ENDPOINT,
  reportsIgnored: false,
  params: {},
  run: ({ world }) => ({ linkifiers: linkifiersState(world) }),
});

const createLinkifier = authed({
  gate: adminOnly,
  params: linkifierParams,
  run: (ctx, args) => ({ id: addLinkifier(ctx.world, linkifierInput(args)) }),
});

const editLinkifier = authed({
  since: FEATURES.UPDATE_LINKIFIER_ENDPOINT,
  gate: adminOnly,
  params: linkifierParams,
  run(ctx, args) {
    updateLinkifier(ctx.world, Number(ctx.path.get('filter_id')), linkifierInput(args));
    return {};
  },
});

const deleteLinkifier = authed({
  gate: adminOnly,
  reportsIgnored: false,
  params: {},
  run({ world, path }) {
    removeLinkifier(world, Number(path.get('filter_id')));
    return {};
  },
});

const reorder = authed({
  since: FEATURES.REORDER_LINKIFIERS,
  gate: adminOnly,
  params: { ordered_linkifier_ids: json(list(int)).required() },
  run({ world }, { ordered_linkifier_ids }) {
    reorderLinkifiers(world, ordered_linkifier_ids);
    return {};
  },
});

/**
 * The legacy list `GET /realm/filters` (what zulip-js `filters.retrieve` calls): `[pattern,
 * url_format, id]` tuples. It could not express URL templates, so from level 176 the route
 * keeps only POST and a GET answers 405.
 */
const getLegacyFilters = authed({
  until: FEATURES.LINKIFIER_URL_TEMPLATE,
  params: {},
  run({ world }) {
    return { filters: realmFiltersState(world) };
  },
});

export const routes: RouteDef[] = [
  { path: '/realm/linkifiers', methods: { GET: getLinkifiers, PATCH: reorder } },
  { path: '/realm/filters', methods: { GET: getLegacyFilters, POST: createLinkifier } },
  { path: '/realm/filters/{filter_id:int}', methods: { PATCH: editLinkifier, DELETE: deleteLinkifier } },
];
