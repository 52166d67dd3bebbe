/**
 * No parameter of any endpoint makes one request expensive: each parameter, in turn, gets a
 * 1 MiB hostile value (runs of every delimiter and of whitespace, markdown delimiters, the same
 * as a JSON string, and one JSON shape: deep nesting, huge lists or objects), the others valid
 * values, and the request must be answered, without a 5xx, within a generous ceiling. The
 * parameters come from the endpoints' declarations (test/support/endpoint-params.ts), so a new
 * endpoint is covered without touching this file.
 *
 * The time is the CPU time the process spent on the request (the handler answers form requests
 * synchronously), not the wall-clock time: on a shared two-core machine under load the wall clock
 * counts other processes' turns too. A request over the ceiling is tried once more, to absorb a
 * garbage collection of earlier requests' garbage; a super-linear one takes seconds either way.
 */
import t from 'tap';
import type { ApiRequest } from '../server/app/request.js';
import { adversarialValues } from './support/adversarial-values.js';
import {
  CALLER,
  type EndpointParameter,
  endpointParameters,
  endpointSamples,
  prepareRealm,
  UNSAMPLED_ENDPOINTS,
  unsampledRequiredParameters,
} from './support/endpoint-params.js';
import { basic, testServer, type TestServer } from './support/harness.js';

const SIZE = 1 << 20;
const CEILING_MS = 200;
/** Which JSON shape each parameter gets besides the values every parameter gets; printed, and settable to replay a run. */
const SEED = Number(process.env.ADVERSARIAL_SEED ?? Date.now() % 1000);

/**
 * Form encoding with only the escapes the format needs (`%`, `&`, `+`, `=`; a space is `+`),
 * other characters sent as their UTF-8 bytes: about 1 MiB of body for 1 MiB of value, so the
 * test spends its time on what the server does with the value rather than on escapes.
 */
const formEncode = (text: string): string =>
  text.replace(/[%&+=]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`).replaceAll(' ', '+');


const encodeForm = (form: ReadonlyMap<string, string>, target: string, encodedValue: string): string =>
  [...form].map(([name, value]) => `${formEncode(name)}=${name === target ? encodedValue : formEncode(value)}`).join('&');

/**
 * The request for `parameter` carrying the value, built outside the measurement: a GET gets its
 * query already decoded (as the HTTP adapter hands it over), a body is the urlencoded bytes
 * that the app decodes as part of the request.
 */
function buildRequest(server: TestServer, parameter: EndpointParameter, value: { readonly value: string; readonly encoded: string }): ApiRequest {
  const placeholder = `\u0000${parameter.name}`;
  const { method, path, form } = parameter.request(placeholder);
  const user = server.world.usersByEmail.get(CALLER);
  if (!user) throw new Error(`no ${CALLER} in the development realm`);
  const fullPath = `/api/v1${parameter.where === 'path' ? path.replace(encodeURIComponent(placeholder), encodeURIComponent(value.value)) : path}`;
  const headers = new Map([['host', 'localhost:9991'], ['authorization', basic(user.deliveryEmail, user.apiKey)]]);
  if (method === 'GET') {
    const query = [...form].map(([name, sample]): [string, string] => [name, name === parameter.name ? value.value : sample]);
    return { method, path: fullPath, query, headers, body: new Uint8Array() };
  }
  headers.set('content-type', 'application/x-www-form-urlencoded');
  return { method, path: fullPath, query: [], headers, body: Buffer.from(encodeForm(form, parameter.name, value.encoded)) };
}

/** CPU milliseconds and the status of one request. */
async function measure(server: TestServer, request: ApiRequest): Promise<{ ms: number; status: number }> {
  const before = process.cpuUsage();
  const response = await server.app.handle(request);
  const used = process.cpuUsage(before);
  return { ms: (used.user + used.system) / 1000, status: response.status };
}

/** A fresh development realm with what the samples need. */
async function preparedServer(): Promise<TestServer> {
  const server = testServer();
  await prepareRealm(server.as(CALLER));
  return server;
}

t.test('every required parameter of every endpoint has a sample value, so the hostile one is reached', async (t) => {
  t.same(unsampledRequiredParameters(testServer().world), []);
});

t.test('every endpoint that takes parameters accepts its sample request, but for the few listed with the reason', async (t) => {
  const refused: string[] = [];
  for (const { method, route, request } of endpointSamples(testServer().world)) {
    const server = await preparedServer();
    const reply = await server.as(CALLER).call(request.method, request.path, Object.fromEntries(request.form));
    const listed = UNSAMPLED_ENDPOINTS.has(`${method} ${route}`);
    if ((reply.status !== 200) !== listed) refused.push(`${method} ${route}: ${reply.status} ${reply.text.slice(0, 100)}${listed ? ' (listed as refused)' : ''}`);
  }
  t.same(refused, []);
});

t.test(`a 1 MiB hostile value in any parameter is answered in under ${CEILING_MS} ms of CPU, never with a 5xx`, async (t) => {
  const parameters = endpointParameters(testServer().world);
  t.ok(parameters.length > 400, `parameters found: ${parameters.length}`);
  t.comment(`seed ${SEED} (ADVERSARIAL_SEED replays it)`);
  // Built here, not at module level, so that the shard running this file can free them afterwards.
  const values = adversarialValues(SIZE).map((value) => ({ ...value, encoded: formEncode(value.value) }));
  const everywhere = values.filter((value) => value.everywhere);
  const rotating = values.filter((value) => !value.everywhere);
  const slow: string[] = [];
  let server = await preparedServer();
  let endpoint = '';
  for (const [index, parameter] of parameters.entries()) {
    // A fresh realm per endpoint: a request that succeeded must not change what the next one meets.
    const key = `${parameter.method} ${parameter.route}`;
    if (key !== endpoint) [server, endpoint] = [await preparedServer(), key];
    for (const value of [...everywhere, rotating[(SEED + index) % rotating.length]!]) {
      let result = await measure(server, buildRequest(server, parameter, value));
      if (result.ms > CEILING_MS) result = await measure(server, buildRequest(server, parameter, value));
      const what = `${key} ${parameter.name} (${parameter.where}) = ${value.name}`;
      if (result.status >= 500) slow.push(`${what}: status ${result.status}`);
      if (result.ms > CEILING_MS) slow.push(`${what}: ${Math.round(result.ms)} ms`);
    }
  }
  t.same(slow, [], 'requests over the ceiling or failing');
});
