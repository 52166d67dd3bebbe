/**
 * Navigation views (FL 390): `GET|POST /navigation_views`, `PATCH|DELETE /navigation_views/{fragment}`
 * (section 4.13). The fragment is the rest of the path and may contain `/`
 * (`/navigation_views/narrow/is/alerted`); it is taken from the URL, never from the form. PATCH
 * strips it (the real view declares it stripped and non-empty); DELETE uses it as sent.
 */
import { addNavigationView, removeNavigationView, updateNavigationView } from '../../../lib/actions/personal/navigation-views.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { navigationViewsState } from '../../../lib/queries/personal/navigation-views.js';
import { bool } from '../../../lib/input/schema.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { json, str } from '../../app/params.js';

const since = FEATURES.NAVIGATION_VIEWS;

/** PATCH validates the path fragment like a form string: stripped, and refused when blank. */
const fragmentParam = str({ strip: true, nonBlank: true });
const pathFragment = (path: ReadonlyMap<string, string>): string => fragmentParam.decode(path.get('fragment') ?? '', 'fragment');

// GET and DELETE are plain views on the real server: no `ignored_parameters_unsupported`.
const getViews = authed({
  since,
  reportsIgnored: false,
  params: {},
  run: ({ world, user }) => ({ navigation_views: navigationViewsState(world, user) }),
});

const addView = authed({
  since,
  params: {
    fragment: str({ strip: true, nonBlank: true }).required(),
    is_pinned: json(bool).required(),
    name: str({ strip: true, nonBlank: true }),
  },
  run({ world, user }, { fragment, is_pinned, name }) {
    addNavigationView(world, user, { fragment, isPinned: is_pinned, name });
    return {};
  },
});

const editView = authed({
  since,
  params: {
    is_pinned: json(bool),
    name: str({ strip: true, nonBlank: true }),
  },
  run({ world, user, path }, { is_pinned, name }) {
    updateNavigationView(world, user, pathFragment(path), { isPinned: is_pinned, name });
    return {};
  },
});

const deleteView = authed({
  since,
  reportsIgnored: false,
  params: {},
  run({ world, user, path }) {
    removeNavigationView(world, user, path.get('fragment') ?? '');
    return {};
  },
});

export const routes: RouteDef[] = [
  { path: '/navigation_views', methods: { GET: getViews, POST: addView } },
  { path: '/navigation_views/{fragment:path}', methods: { PATCH: editView, DELETE: deleteView } },
];
