/**
 * The pointer: `GET /users/me/pointer`, and `PUT` or `POST` to move it (levels below 23, which
 * removed all three). The parameter is read as the real server's `to_non_negative_int` converter
 * reads it: Python's `int()` of the raw form value, refused when negative.
 */
import { clientName } from '../../../lib/actions/messages/messages.js';
import { isAndroidClient, updatePointer } from '../../../lib/actions/users/pointer.js';
import { badValue } from '../../../lib/errors.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { pointerOf } from '../../../lib/queries/users/pointer.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { str } from '../../app/params.js';

/** Python's `int()` of a string in base 10: surrounding whitespace, a sign, digits with single underscores between them. */
const PYTHON_INT = /^[+-]?[0-9]+(?:_[0-9]+)*$/;

/** A value above every safe integer stays a number above every message ID, so it is simply no message. */
function toNonNegativeInt(raw: string, name: string): number {
  const text = raw.trim();
  if (!PYTHON_INT.test(text)) throw badValue(name, raw);
  const value = Number(text.replaceAll('_', ''));
  if (value < 0) throw badValue(name, raw);
  return value === 0 ? 0 : value;
}

const getPointer = authed({
  until: FEATURES.POINTER_REMOVED,
  reportsIgnored: false,
  params: {},
  run: ({ world, user }) => ({ pointer: pointerOf(world, user.id) }),
});

const movePointer = authed({
  until: FEATURES.POINTER_REMOVED,
  params: { pointer: str().required().map(toNonNegativeInt) },
  run({ world, user, params, request }, args) {
    const client = clientName(params.body.get('client') ?? params.query.get('client'), request.headers.get('user-agent'));
    updatePointer(world, user, args.pointer, { markPassedRead: isAndroidClient(client) });
    return {};
  },
});

export const routes: RouteDef[] = [{ path: '/users/me/pointer', methods: { GET: getPointer, PUT: movePointer, POST: movePointer } }];
