/**
 * Linkifiers: `GET /realm/linkifiers` (4.19), `POST /realm/filters` (4.16),
 * `PATCH|DELETE /realm/filters/{filter_id}`, `PATCH /realm/linkifiers` (reorder). Changes are
 * for administrators only; that gate runs before any parameter is read (behaviour reference §0.2).
 */
import { addLinkifier, type LinkifierInput, removeLinkifier, reorderLinkifiers, updateLinkifier } from '../../lib/actions/linkifiers.js';
import { missingArgument, mustBeAdministrator } from '../../lib/errors.js';
import { isAdministrator } from '../../lib/entities/user.js';
import { FEATURES } from '../../lib/features.js';
import { linkifiersState } from '../../lib/queries/linkifiers.js';
import { int, list } from '../../lib/schema.js';
import { type AuthedContext, authed, type RouteDef } from '../endpoint.js';
import { json, str } from '../params.js';

const adminOnly = ({ user }: AuthedContext): void => {
  if (!isAdministrator(user)) throw mustBeAdministrator();
};

/**
 * `pattern` and the target are both required. Since FL 176 the target is `url_template`;
 * before, it was `url_format_string` (a `%(name)s` format string). A parameter cannot be
 * declared as existing only below a level, so the legacy one is read by hand: at FL 415 it is
 * then correctly reported in `ignored_parameters_unsupported`, at FL 167-175 it is wrongly
 * listed there too.
 */
const linkifierParams = {
  pattern: str({ strip: true }).required(),
  url_template: str({ strip: true }).availableFrom(FEATURES.LINKIFIER_URL_TEMPLATE),
};

function linkifierInput({ world, params }: AuthedContext, args: { pattern: string; url_template?: string | undefined }): LinkifierInput {
  if (world.has(FEATURES.LINKIFIER_URL_TEMPLATE)) {
    if (args.url_template === undefined) throw missingArgument('url_template');
    return { pattern: args.pattern, target: args.url_template };
  }
  const legacy = params.body.get('url_format_string') ?? params.query.get('url_format_string');
  if (legacy === undefined) throw missingArgument('url_format_string');
  return { pattern: args.pattern, target: legacy.trim() };
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
  run: (ctx, args) => ({ id: addLinkifier(ctx.world, linkifierInput(ctx, args)) }),
});

const editLinkifier = authed({
  since: FEATURES.UPDATE_LINKIFIER_ENDPOINT,
  gate: adminOnly,
  params: linkifierParams,
  run(ctx, args) {
    updateLinkifier(ctx.world, Number(ctx.path.get('filter_id')), linkifierInput(ctx, args));
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

export const routes: RouteDef[] = [
  { path: '/realm/linkifiers', methods: { GET: getLinkifiers, PATCH: reorder } },
  { path: '/realm/filters', methods: { POST: createLinkifier } },
  { path: '/realm/filters/{filter_id:int}', methods: { PATCH: editLinkifier, DELETE: deleteLinkifier } },
];
