/**
 * Default channel groups: `POST /default_stream_groups/create`, `PATCH`/`DELETE
 * /default_stream_groups/{group_id}` and `PATCH /default_stream_groups/{group_id}/streams`, for
 * administrators only (checked before any parameter). Clients read the groups from
 * `POST /register` (`realm_default_stream_groups`).
 */
import {
  accessChannelsByName,
  accessDefaultStreamGroup,
  addChannelsToDefaultStreamGroup,
  createDefaultStreamGroup,
  deleteDefaultStreamGroup,
  describeDefaultStreamGroup,
  removeChannelsFromDefaultStreamGroup,
  renameDefaultStreamGroup,
} from '../../../lib/actions/channels/defaults/default-stream-groups.js';
import { MAX_DEFAULT_STREAM_GROUP_DESCRIPTION_LENGTH } from '../../../lib/entities/stream.js';
import { isAdministrator } from '../../../lib/entities/user.js';
import { badRequest, mustBeAdministrator } from '../../../lib/errors.js';
import { MAX_CHANNELS } from '../../../lib/input/limits.js';
import { list, str as jsonStr } from '../../../lib/input/schema.js';
import { authed, type AuthedContext, type RouteDef } from '../../app/endpoint.js';
import { json, str } from '../../app/params.js';

const administratorsOnly = ({ user }: AuthedContext): void => {
  if (!isAdministrator(user)) throw mustBeAdministrator();
};

const streamNames = json(list(jsonStr, MAX_CHANNELS)).required();
// The real column holds 1,024 characters; longer descriptions fail there, so they are refused here.
const description = str({ maxLength: MAX_DEFAULT_STREAM_GROUP_DESCRIPTION_LENGTH });

const groupId = (path: ReadonlyMap<string, string>): number => Number(path.get('group_id'));

const create = authed({
  gate: administratorsOnly,
  params: { group_name: str().required(), description: description.required(), stream_names: streamNames },
  run({ world, user }, args) {
    const streams = accessChannelsByName(world, user, args.stream_names);
    createDefaultStreamGroup(world, args.group_name, args.description, streams);
    return {};
  },
});

/** An empty value counts as not given for the "must pass" check, but an empty name is still applied. */
const updateInfo = authed({
  gate: administratorsOnly,
  params: { new_group_name: str(), new_description: description },
  run({ world, path }, args) {
    if (!args.new_group_name && !args.new_description) throw badRequest('You must pass "new_description" or "new_group_name".');
    const group = accessDefaultStreamGroup(world, groupId(path));
    if (args.new_group_name !== undefined) renameDefaultStreamGroup(world, group, args.new_group_name);
    if (args.new_description !== undefined) describeDefaultStreamGroup(world, group, args.new_description);
    return {};
  },
});

/** The group, then the channels, then `op`: the real view's order. */
const updateStreams = authed({
  gate: administratorsOnly,
  params: { op: str().required(), stream_names: streamNames },
  run({ world, user, path }, args) {
    const group = accessDefaultStreamGroup(world, groupId(path));
    const streams = accessChannelsByName(world, user, args.stream_names);
    if (args.op === 'add') addChannelsToDefaultStreamGroup(world, group, streams);
    else if (args.op === 'remove') removeChannelsFromDefaultStreamGroup(world, group, streams);
    else throw badRequest('Invalid value for "op". Specify one of "add" or "remove".');
    return {};
  },
});

const remove = authed({
  gate: administratorsOnly,
  params: {},
  run({ world, path }) {
    deleteDefaultStreamGroup(world, accessDefaultStreamGroup(world, groupId(path)));
    return {};
  },
});

export const routes: RouteDef[] = [
  { path: '/default_stream_groups/create', methods: { POST: create } },
  { path: '/default_stream_groups/{group_id:int}', methods: { PATCH: updateInfo, DELETE: remove } },
  { path: '/default_stream_groups/{group_id:int}/streams', methods: { PATCH: updateStreams } },
];
