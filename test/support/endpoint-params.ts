/**
 * Every parameter of every endpoint served at a world's level, read from the endpoints'
 * declarations (so a new endpoint or parameter is listed without anyone adding it here), with
 * valid values for the others: a request that carries one hostile value and otherwise makes sense,
 * so that the hostile value reaches the code that handles it rather than a "missing argument".
 */
import type { Endpoint, Method } from '../../server/app/endpoint.js';
import type { ParamSpecs } from '../../server/app/params.js';
import { ROUTES } from '../../server/app/routes.js';
import type { World } from '../../lib/state/world.js';
import type { Client } from './harness.js';

export interface EndpointParameter {
  readonly method: Method;
  /** The route pattern, e.g. `/messages/{message_id:int}`. */
  readonly route: string;
  readonly name: string;
  /** A path segment of the route, or a form (query or body) parameter. */
  readonly where: 'path' | 'form';
  /** Builds the request with `value` for this parameter; the others get sample values. */
  request(value: string): { readonly method: Method; readonly path: string; readonly form: ReadonlyMap<string, string> };
}

/** Who sends the requests: an owner, whom no role gate stops. */
export const CALLER = 'desdemona@zulip.com';

/**
 * What the samples need beyond the development realm: a draft of the caller's (ID 3, after the
 * realm's two), a scheduled message of the caller's (ID 1), a default channel group (ID 1), channel
 * folder 1 and no time limit on editing content, so that the edit of message 5 (the caller's, sent
 * months before the test clock) reaches its content.
 */
export async function prepareRealm(caller: Client): Promise<void> {
  const steps: Array<[string, string, Record<string, string>]> = [
    ['PATCH', '/realm', { message_content_edit_limit_seconds: '"unlimited"' }],
    ['POST', '/drafts', { drafts: '[{"type":"stream","to":[3],"topic":"t","content":"c"}]' }],
    ['POST', '/scheduled_messages', { type: 'stream', to: '3', topic: 't', content: 'c', scheduled_delivery_timestamp: '2000000000' }],
    ['POST', '/default_stream_groups/create', { group_name: 'prepared', description: '', stream_names: '["Denmark"]' }],
    ['POST', '/channel_folders/create', { name: 'Sample folder', description: '' }],
  ];
  for (const [method, path, params] of steps) {
    const reply = await caller.call(method, path, params);
    if (reply.status !== 200) throw new Error(`preparing the realm: ${method} ${path} -> ${reply.text}`);
  }
}

/** Valid values of path parameters, by name (the development realm's IDs). */
const PATH_SAMPLES: ReadonlyMap<string, string> = new Map([
  ['stream_id', '3'], ['message_id', '5'], ['user_id', '10'], ['field_id', '1'], ['playground_id', '1'], ['invite_id', '1'],
  ['export_id', '1'], ['draft_id', '3'], ['user_group_id', '17'], ['filter_id', '1'], ['reminder_id', '1'], ['scheduled_message_id', '1'], ['attachment_id', '1'],
  ['bot_id', '16'], ['muted_user_id', '12'], ['saved_snippet_id', '1'], ['emoji_name', 'green_tick'], ['fragment', 'narrow/is/alerted'],
  ['group_id', '1'], ['user_id_or_email', '10'], ['email', 'hamlet@zulip.com'], ['realm_id_str', '2'], ['filename', 'a/b.txt'],
  ['channel_folder_id', '1'], ['domain', 'zulip.com'],
]);

/** Valid values of form parameters, by name, for the required parameters besides the one tried. */
const FORM_SAMPLES: ReadonlyMap<string, string> = new Map([
  ['username', 'iago@zulip.com'], ['password', 'iago-password'], ['subscriptions', '[{"name":"Verona"}]'], ['stream', 'Verona'],
  ['stream_id', '3'], ['topic', 'lunch'], ['op', 'add'], ['subscription_data', '[{"stream_id":3,"property":"pin_to_top","value":true}]'],
  ['field_type', '1'], ['order', '[1,2,3,4,5,6,7,8,9]'], ['name', 'sample'], ['url_template', 'https://example.com/{code}'],
  ['url_prefix', 'https://example.com/'], ['pygments_language', 'Python'], ['invitee_emails', 'someone@zulip.com'], ['stream_ids', '[3]'],
  ['queue_id', 'none'], ['visibility_policy', '1'], ['status', 'active'], ['drafts', '[{"type":"stream","to":[3],"topic":"t","content":"c"}]'],
  ['draft', '{"type":"stream","to":[3],"topic":"t","content":"c"}'], ['description', 'd'], ['members', '[10]'], ['type', 'stream'],
  ['content', 'hello'], ['report_type', 'spam'], ['topic_name', 'lunch'], ['msg_ids', '[5]'], ['narrow', '[]'], ['anchor', 'newest'],
  ['num_before', '1'], ['num_after', '1'], ['flag', 'read'], ['emoji_name', 'smile'], ['messages', '[5]'], ['message_id', '5'],
  ['token_kind', 'fcm'], ['push_account_id', '1'], ['push_public_key', 'key'], ['bouncer_public_key', 'key'],
  ['encrypted_push_registration', 'data'], ['fragment', 'narrow/is/starred'], ['is_pinned', 'true'], ['ordered_linkifier_ids', '[1,2,3]'],
  ['pattern', '#(?P<id>[0-9]+)'], ['url_format_string', 'https://example.com/%(id)s'], ['scheduled_delivery_timestamp', '2000000000'],
  ['full_name', 'Sample Bot'], ['short_name', 'sample'], ['alert_words', '["sample"]'], ['data', '[{"id":1,"value":"1234"}]'],
  ['group_name', 'sample group'], ['stream_names', '["Rome"]'],
  ['domain', 'sample.example.com'], ['allow_subdomains', 'true'],
  ['title', 'sample'], ['token', 'sample-token'], ['appid', 'org.zulip.Zulip'], ['email', 'someone@zulip.com'], ['to', 'Verona'],
  ['onboarding_step', 'intro_inbox_view_modal'], ['hotspot', 'intro_streams'],
]);

/** Values that only make sense together, by endpoint (`METHOD route`); they win over FORM_SAMPLES. */
const ENDPOINT_SAMPLES: ReadonlyMap<string, Readonly<Record<string, string>>> = new Map<string, Readonly<Record<string, string>>>([
  ['DELETE /users/me/subscriptions', { subscriptions: '["Verona"]' }],
  ['POST /typing', { op: 'start', type: 'stream', stream_id: '3', topic: 'lunch' }],
  ['POST /message_edit_typing', { op: 'start' }],
  ['POST /messages/{message_id:int}/typing', { op: 'start' }],
  ['POST /users/me/presence', { status: 'active' }],
  ['POST /user_groups/create', { name: 'sample group', description: 'd', members: '[10]' }],
  ['POST /users', { email: 'someone@zulip.com', password: 'a long sample password', full_name: 'Someone' }],
  ['POST /navigation_views', { fragment: 'narrow/is/starred', is_pinned: 'true' }],
  ['POST /messages/flags/narrow', { anchor: 'newest', num_before: '5', num_after: '0', narrow: '[]', op: 'add', flag: 'starred' }],
  ['PATCH /users/me/subscriptions/muted_topics', { stream_id: '3', topic: 'lunch', op: 'add' }],
  ['POST /realm/profile_fields', { name: 'Sample field', field_type: '1' }],
  ['POST /users/me/status', { status_text: 'sample' }],
  ['POST /users/{user_id:int}/status', { status_text: 'sample' }],
  ['POST /user_groups/{user_group_id:int}/members', { add: '[6]' }],
  ['PATCH /user_groups/{user_group_id:int}', { description: 'sample' }],
  ['GET /messages', { anchor: 'newest', num_before: '1', num_after: '1' }],
  ['POST /messages', { type: 'stream', to: 'Verona', topic: 'lunch', content: 'hello' }],
  ['POST /scheduled_messages', { type: 'stream', to: '3', topic: 'lunch', content: 'hello' }],
  ['PATCH /scheduled_messages/{scheduled_message_id:int}', { content: 'edited' }],
  ['PATCH /messages/{message_id:int}', { content: 'edited' }],
  ['POST /realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://example.com/{id}' }],
  ['PATCH /realm/filters/{filter_id:int}', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://example.com/{id}' }],
  ['DELETE /users/me/profile_data', { data: '[1]' }],
  ['PATCH /default_stream_groups/{group_id:int}', { new_description: 'sample' }],
  ['POST /users/me/apns_device_token', { token: 'a1b2c3d4', appid: 'org.zulip.Zulip' }],
]);

/**
 * Endpoints whose sample request the development realm refuses, and why: a hostile value in
 * their parameters may be refused before it is read, so they are tried less thoroughly.
 */
export const UNSAMPLED_ENDPOINTS: ReadonlyMap<string, string> = new Map([
  ['GET /events', 'needs a queue registered in the same session'],
  ['DELETE /events', 'needs a queue registered in the same session'],
  ['POST /realm/emoji/{emoji_name:path}', 'needs an uploaded image'],
  ['POST /user_groups/{user_group_id:int}/subgroups', 'needs a second user-defined group'],
  ['POST /messages/{message_id:int}/report', 'message reporting is off in the development realm'],
  ['DELETE /messages/{message_id:int}/reactions', 'needs a reaction of the caller'],
  ['POST /mobile_push/register', 'needs a push notification service'],
  ['PATCH /navigation_views/{fragment:path}', 'needs a saved navigation view'],
  ['DELETE /navigation_views/{fragment:path}', 'needs a saved navigation view'],
  ['DELETE /users/me/apns_device_token', 'needs a registered device'],
  ['DELETE /users/me/android_gcm_reg_id', 'needs a registered device'],
  ['GET /user_uploads/{realm_id_str}/{filename:path}', 'needs an uploaded file'],
]);

/** The parameters an endpoint reads at the world's level. */
const paramsOf = (world: World, endpoint: Endpoint): ParamSpecs => endpoint.paramsAt?.(world) ?? endpoint.params;

/** Required form parameters of every endpoint for which no sample value is known (should be none). */
export function unsampledRequiredParameters(world: World): string[] {
  const missing: string[] = [];
  for (const { method, route, endpoint } of endpoints(world)) {
    for (const [name, spec] of Object.entries(paramsOf(world, endpoint))) {
      const known = ENDPOINT_SAMPLES.get(`${method} ${route}`)?.[name] ?? FORM_SAMPLES.get(name);
      if (spec.options.isRequired && known === undefined) missing.push(`${method} ${route} ${name}`);
    }
  }
  return missing;
}

/** The endpoints served at the world's level. */
function* endpoints(world: World): Generator<{ method: Method; route: string; endpoint: Endpoint }> {
  for (const route of ROUTES) {
    for (const [method, endpoint] of Object.entries(route.methods) as Array<[Method, Endpoint]>) {
      const served = (!endpoint.since || world.has(endpoint.since)) && (!endpoint.until || !world.has(endpoint.until));
      if (served) yield { method, route: route.path, endpoint };
    }
  }
}

/** The route with its path parameters filled in: `target` gets `value`, the others their sample. */
function fillPath(route: string, target: string | undefined, value: string): string {
  return route.replace(/\{(\w+)(?::\w+)?\}/g, (_, name: string) =>
    encodeURIComponent(name === target ? value : (PATH_SAMPLES.get(name) ?? '1')),
  );
}

export interface EndpointSample {
  readonly method: Method;
  readonly route: string;
  /** The endpoint's request with sample values only. */
  readonly request: { readonly method: Method; readonly path: string; readonly form: ReadonlyMap<string, string> };
}

/**
 * The request of each endpoint that takes parameters (form parameters or text path segments),
 * with sample values for its required parameters and those sampled together.
 */
export function endpointSamples(world: World): EndpointSample[] {
  const samples: EndpointSample[] = [];
  for (const { method, route, endpoint } of endpoints(world)) {
    const together = ENDPOINT_SAMPLES.get(`${method} ${route}`) ?? {};
    const form = new Map<string, string>();
    for (const [name, spec] of Object.entries(paramsOf(world, endpoint))) {
      const sample = together[name] ?? FORM_SAMPLES.get(name);
      if (sample !== undefined && (spec.options.isRequired || name in together)) form.set(name, sample);
    }
    const hasParameters = Object.keys(paramsOf(world, endpoint)).length > 0 || /\{\w+(?::path)?\}/.test(route);
    if (hasParameters) samples.push({ method, route, request: { method, path: fillPath(route, undefined, ''), form } });
  }
  return samples;
}

/** Every parameter of every endpoint: path segments that are not integers, then the form parameters. */
export function endpointParameters(world: World): EndpointParameter[] {
  const found: EndpointParameter[] = [];
  for (const { method, route, endpoint } of endpoints(world)) {
    const specs = paramsOf(world, endpoint);
    const together = ENDPOINT_SAMPLES.get(`${method} ${route}`) ?? {};
    const requiredSamples = (except: string | undefined): Map<string, string> => {
      const form = new Map<string, string>();
      for (const [name, spec] of Object.entries(specs)) {
        const sample = together[name] ?? FORM_SAMPLES.get(name);
        if (name !== except && sample !== undefined && (spec.options.isRequired || name in together)) form.set(name, sample);
      }
      return form;
    };
    for (const [, name, kind] of route.matchAll(/\{(\w+)(?::(\w+))?\}/g)) {
      if (kind === 'int' || name === undefined) continue;
      found.push({ method, route, name, where: 'path', request: (value) => ({ method, path: fillPath(route, name, value), form: requiredSamples(undefined) }) });
    }
    for (const [name, spec] of Object.entries(specs)) {
      for (const alias of [name, ...(spec.options.aliases ?? [])]) {
        found.push({
          method,
          route,
          name: alias,
          where: 'form',
          request: (value) => ({ method, path: fillPath(route, undefined, ''), form: new Map([...requiredSamples(name), [alias, value]]) }),
        });
      }
    }
  }
  return found;
}
