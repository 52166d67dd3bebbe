/**
 * Matches a path against the route table (first match wins, as in Django's URL list) and picks
 * the method. Routes whose endpoints do not exist at the emulated feature level are skipped.
 */
import type { World } from '../../lib/state/world.js';
import type { Endpoint, Method, RouteDef } from './endpoint.js';

type Segment = { kind: 'static'; text: string } | { kind: 'param' | 'int'; name: string } | { kind: 'rest'; name: string };

interface CompiledRoute {
  readonly def: RouteDef;
  readonly segments: readonly Segment[];
  /** Whether any segment is a parameter (a static route shares one empty map). */
  readonly hasParams: boolean;
}

const NO_PARAMS: ReadonlyMap<string, string> = new Map();

export type RouteMatch =
  | { kind: 'found'; endpoint: Endpoint; path: ReadonlyMap<string, string>; def: RouteDef }
  | { kind: 'method-not-allowed'; allowed: string[]; def: RouteDef }
  | { kind: 'options'; allowed: string[] }
  | { kind: 'not-found' };

export const API_PREFIX = '/api/v1';
const API_PREFIX_SLASH = `${API_PREFIX}/`;

function compile(def: RouteDef): CompiledRoute {
  const segments = def.path
    .split('/')
    .filter((s) => s !== '')
    .map((part): Segment => {
      const param = /^\{(\w+)(?::(int|path))?\}$/.exec(part);
      if (!param) return { kind: 'static', text: part };
      const name = param[1] as string;
      if (param[2] === 'int') return { kind: 'int', name };
      if (param[2] === 'path') return { kind: 'rest', name };
      return { kind: 'param', name };
    });
  return { def, segments, hasParams: segments.some((segment) => segment.kind !== 'static') };
}

function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

const NOT_FOUND: RouteMatch = Object.freeze({ kind: 'not-found' });
const NO_SEGMENTS: readonly string[] = [];

/**
 * The segments of a path after its leading `/` (`/users/10/` gives `users`, `10`: one trailing
 * slash is dropped), as `path.slice(1).split('/')` would give, without the runtime call `split`
 * makes for a string it has not seen before.
 */
function pathSegments(path: string): string[] {
  const parts: string[] = [];
  let start = 1;
  for (;;) {
    const slash = path.indexOf('/', start);
    if (slash === -1) {
      parts.push(path.slice(start));
      break;
    }
    parts.push(path.slice(start, slash));
    start = slash + 1;
  }
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** Whether `route` matches the path's segments; nothing is allocated for the routes tried and missed. */
function matchesSegments(route: CompiledRoute, parts: readonly string[]): boolean {
  let i = 0;
  for (const segment of route.segments) {
    if (segment.kind === 'rest') return i < parts.length;
    const part = parts[i++];
    if (part === undefined) return false;
    if (segment.kind === 'static') {
      if (part !== segment.text) return false;
    } else if (segment.kind === 'int') {
      if (!isDigits(part)) return false;
    } else if (part === '') {
      return false;
    }
  }
  return i === parts.length;
}

/** `/^\d+$/` without a regular expression run per request. */
function isDigits(text: string): boolean {
  if (text === '') return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/** The path parameters of a route that `matchesSegments` accepted. */
function capture(route: CompiledRoute, parts: readonly string[]): Map<string, string> {
  const captured = new Map<string, string>();
  for (let i = 0; i < route.segments.length; i++) {
    const segment = route.segments[i] as Segment;
    if (segment.kind === 'rest') {
      captured.set(segment.name, parts.slice(i).join('/'));
      break;
    }
    if (segment.kind !== 'static') captured.set(segment.name, parts[i] as string);
  }
  return captured;
}

const NO_ROUTES: readonly CompiledRoute[] = [];

/** Whether `route` can match a path of `length` segments (a `rest` takes one or more, and ends the match). */
function canHaveLength(route: CompiledRoute, length: number): boolean {
  const rest = route.segments.findIndex((segment) => segment.kind === 'rest');
  return rest === -1 ? length === route.segments.length : length > rest;
}

/** Resource modules may each add methods to one path; they are served as one route. */
function mergeSamePaths(defs: readonly RouteDef[]): RouteDef[] {
  const merged = new Map<string, RouteDef>();
  for (const def of defs) {
    const existing = merged.get(def.path);
    if (!existing) {
      merged.set(def.path, { ...def, methods: { ...def.methods } });
      continue;
    }
    for (const method of Object.keys(def.methods) as Method[]) {
      if (existing.methods[method]) throw new Error(`route ${method} ${def.path} is declared twice`);
    }
    merged.set(def.path, { ...existing, methods: { ...existing.methods, ...def.methods } });
  }
  return [...merged.values()];
}

export class Router {
  private readonly routes: CompiledRoute[];
  private readonly staticRoutes = new Map<string, CompiledRoute>();
  /** Routes by their first (always static) segment, in declaration order: a path only tries its own. */
  private readonly byFirstSegment = new Map<string, CompiledRoute[]>();
  /**
   * The same lists narrowed by the path's segment count (index), still in declaration order: a
   * route only appears where it can match that many segments, so `/users/10` tries the few
   * two-segment `users` routes rather than every `users` route. Longer paths use the full list.
   */
  private readonly byFirstSegmentAndLength = new Map<string, CompiledRoute[][]>();

  constructor(defs: readonly RouteDef[]) {
    this.routes = mergeSamePaths(defs).map(compile);
    for (const route of this.routes) {
      const first = route.segments[0];
      const key = first?.kind === 'static' ? first.text : '';
      const list = this.byFirstSegment.get(key) ?? [];
      list.push(route);
      this.byFirstSegment.set(key, list);
    }
    if (this.byFirstSegment.has('')) throw new Error('every route must start with a static segment');
    for (const [first, list] of this.byFirstSegment) {
      const longest = Math.max(...list.map((route) => route.segments.length));
      const byLength: CompiledRoute[][] = [];
      for (let length = 0; length <= longest; length++) byLength.push(list.filter((route) => canHaveLength(route, length)));
      this.byFirstSegmentAndLength.set(first, byLength);
    }
    // Fast path for routes without parameters; order still matters only among patterns.
    for (const route of this.routes) {
      if (route.segments.every((s) => s.kind === 'static') && !this.staticRoutes.has(route.def.path)) {
        this.staticRoutes.set(`/${route.segments.map((s) => (s as { text: string }).text).join('/')}`, route);
      }
    }
  }

  /** Methods of a route that exist at the world's feature level, worked out once per world. */
  private readonly availability = new WeakMap<World, Map<RouteDef, { methods: Method[]; allowed: string[] }>>();

  private available(world: World, def: RouteDef): { methods: Method[]; allowed: string[] } {
    let perWorld = this.availability.get(world);
    if (!perWorld) {
      perWorld = new Map();
      this.availability.set(world, perWorld);
    }
    let entry = perWorld.get(def);
    if (!entry) {
      const methods: Method[] = [];
      for (const [method, endpoint] of Object.entries(def.methods) as Array<[Method, Endpoint]>) {
        if ((!endpoint.since || world.has(endpoint.since)) && (!endpoint.until || !world.has(endpoint.until))) methods.push(method);
      }
      entry = { methods, allowed: methods.includes('GET') ? [...methods, 'HEAD'] : methods };
      perWorld.set(def, entry);
    }
    return entry;
  }

  private candidates(parts: readonly string[]): readonly CompiledRoute[] {
    const first = parts[0] ?? '';
    const byLength = this.byFirstSegmentAndLength.get(first);
    if (!byLength) return NO_ROUTES;
    return byLength[parts.length] ?? this.byFirstSegment.get(first) ?? NO_ROUTES;
  }

  match(world: World, method: string, rawPath: string): RouteMatch {
    if (!rawPath.startsWith(API_PREFIX_SLASH)) return NOT_FOUND;
    const path = rawPath.includes('%') ? decodePath(rawPath.slice(API_PREFIX.length)) : rawPath.slice(API_PREFIX.length);
    const exact = this.staticRoutes.get(path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);
    if (exact) return this.resolve(world, method, exact, NO_SEGMENTS);
    const parts = pathSegments(path);
    for (const route of this.candidates(parts)) {
      if (matchesSegments(route, parts)) return this.resolve(world, method, route, parts);
    }
    return NOT_FOUND;
  }

  /** The answer for a request whose path matched `route` (split into `parts`). */
  private resolve(world: World, method: string, route: CompiledRoute, parts: readonly string[]): RouteMatch {
    const { methods, allowed } = this.available(world, route.def);
    if (methods.length === 0) return NOT_FOUND;
    if (method === 'OPTIONS') return { kind: 'options', allowed: [...allowed] };
    const effective = (method === 'HEAD' ? 'GET' : method) as Method;
    const endpoint = methods.includes(effective) ? route.def.methods[effective] : undefined;
    if (!endpoint) return { kind: 'method-not-allowed', allowed: [...allowed], def: route.def };
    return { kind: 'found', endpoint, path: route.hasParams ? capture(route, parts) : NO_PARAMS, def: route.def };
  }
}
