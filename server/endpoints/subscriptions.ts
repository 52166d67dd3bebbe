import type { RouteDef } from '../endpoint.js';

export const routes: RouteDef[] = [];
