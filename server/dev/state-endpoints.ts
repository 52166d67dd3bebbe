/**
 * `GET /__dev/state` answers the whole world as a `--state` file (lib/state/world-snapshot.ts);
 * `PUT /__dev/state` replaces the world with such a document. The import is checked as the state
 * file loader checks a file (JSON, format, version, the type of every field, the references
 * between tables, the ID counters, and the feature level the server was started at; every problem
 * is listed); the new world is built aside and
 * swapped in only when all of that passed, so a refused import leaves the state as it was. Event
 * queues are dropped on import, as on a reset or a restart.
 */
import { isValidFeatureLevel, MAX_FEATURE_LEVEL, MIN_FEATURE_LEVEL } from '../../lib/features/feature-levels.js';
import { restoreWorld, SnapshotError, snapshotWorld } from '../../lib/state/world-snapshot.js';
import type { World } from '../../lib/state/world.js';
import type { ApiRequest } from '../app/request.js';
import { jsonResponse } from '../app/respond.js';
import type { DevControl, DevRoute } from './control.js';
import { DevRequestError, devSuccess, jsonBody } from './dev-json.js';

function refuse(problem: string, problems: readonly string[] = [problem]): never {
  throw new DevRequestError(400, `the state cannot be imported: ${problem}; the state was left as it is`, { problems });
}

/** The request body as JSON, or a 400 in the import's terms. */
function documentOf(request: ApiRequest): unknown {
  try {
    return jsonBody(request);
  } catch (error) {
    refuse((error as Error).message);
  }
}

/** The world the document describes, or a 400 naming what is wrong with it. */
function importedWorld(document: unknown, control: DevControl): World {
  let world: World;
  try {
    world = restoreWorld(document, { clock: control.app().world.clock });
  } catch (error) {
    // Every problem of a checked document is listed; anything else it throws is bad input too.
    if (error instanceof SnapshotError) refuse(error.message, error.problems);
    refuse(error instanceof Error ? error.message : String(error));
  }
  if (!isValidFeatureLevel(world.featureLevel)) refuse(`featureLevel must be an integer from ${MIN_FEATURE_LEVEL} to ${MAX_FEATURE_LEVEL}, got ${world.featureLevel}`);
  const required = control.requiredFeatureLevel;
  if (required !== undefined && world.featureLevel !== required) refuse(`it was saved at feature level ${world.featureLevel}, and this server was started at ${required}`);
  return world;
}

export const stateRoutes: readonly DevRoute[] = [
  {
    path: '/__dev/state',
    methods: {
      GET: (_request, control) => jsonResponse(200, snapshotWorld(control.app().world), { 'Content-Disposition': 'attachment; filename="chat-state.json"' }),
      PUT: (request, control) => {
        const world = importedWorld(documentOf(request), control);
        control.replaceWorld(world);
        return devSuccess({ feature_level: world.featureLevel, users: world.users.size, channels: world.streams.size, messages: world.messages.size });
      },
    },
  },
];
