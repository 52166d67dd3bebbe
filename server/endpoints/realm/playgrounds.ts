/**
 * Code playgrounds (FL 49): `POST /realm/playgrounds` and `DELETE /realm/playgrounds/{playground_id}`,
 * for administrators only (checked before any parameter). Clients read the list from
 * `POST /register` (`realm_playgrounds`).
 */
import { addPlayground, removePlayground } from '../../../lib/actions/realm/playgrounds.js';
import { badRequest, mustBeAdministrator } from '../../../lib/errors.js';
import { isAdministrator } from '../../../lib/entities/user.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { isUrl } from '../../../lib/input/profile-field-data.js';
import { type AuthedContext, authed, type RouteDef } from '../../app/endpoint.js';
import { str } from '../../app/params.js';

const adminOnly = ({ user }: AuthedContext): void => {
  if (!isAdministrator(user)) throw mustBeAdministrator();
};

/**
 * `check_pygments_language`: at most 40 characters from a small set (checked before stripping).
 * The real pattern's `+-.` is a character range (`+`, `,`, `-`, `.`), so a comma is allowed, and
 * its `$` also matches before a final newline, so one trailing newline passes (then stripped).
 */
const pygmentsLanguage = str({ maxLength: 40 })
  .required()
  .check((value) => {
    if (!/^[ a-zA-Z0-9_+,\-./#]*\n?$/.test(value)) throw badRequest('Invalid characters in pygments language');
  });

const add = authed({
  since: FEATURES.PLAYGROUNDS,
  gate: adminOnly,
  params: {
    name: str().required(),
    url_template: str().required().availableFrom(FEATURES.PLAYGROUND_URL_TEMPLATE),
    url_prefix: str()
      .required()
      .availableBefore(FEATURES.PLAYGROUND_URL_TEMPLATE)
      .check((value, name) => {
        if (!isUrl(value)) throw badRequest(`${name} is not a URL`);
      }),
    pygments_language: pygmentsLanguage,
  },
  run({ world }, args) {
    // Exactly one of the two template parameters exists at any level, and it is required there.
    const template = args.url_template ?? args.url_prefix ?? '';
    return { id: addPlayground(world, { name: args.name.trim(), pygmentsLanguage: args.pygments_language.trim(), urlTemplate: template.trim() }) };
  },
});

const remove = authed({
  since: FEATURES.PLAYGROUNDS,
  gate: adminOnly,
  params: {},
  run({ world, path }) {
    removePlayground(world, Number(path.get('playground_id')));
    return {};
  },
});

export const routes: RouteDef[] = [
  { path: '/realm/playgrounds', methods: { POST: add } },
  { path: '/realm/playgrounds/{playground_id:int}', methods: { DELETE: remove } },
];
