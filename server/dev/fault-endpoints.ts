/** `/__dev/faults`: register (POST), list (GET) and clear (DELETE, all or `/__dev/faults/{id}`) injected faults. */
import type { DevRoute } from './control.js';
import { DevRequestError, devSuccess, JsonFields } from './dev-json.js';
import { faultJson } from './faults.js';

export const faultRoutes: readonly DevRoute[] = [
  {
    path: '/__dev/faults',
    methods: {
      GET: (_request, control) => devSuccess({ faults: control.faults.list().map(faultJson) }),
      POST: (request, control) => devSuccess({ fault: faultJson(control.faults.add(JsonFields.of(request))) }),
      DELETE: (_request, control) => {
        const cleared = control.faults.list().length;
        control.faults.clear();
        return devSuccess({ cleared });
      },
    },
  },
  {
    path: '/__dev/faults/{id}',
    methods: {
      DELETE: (_request, control, params) => {
        const id = params.get('id') ?? '';
        if (!/^\d{1,9}$/.test(id) || !control.faults.clear(Number(id))) throw new DevRequestError(404, `no fault ${id}`);
        return devSuccess({ cleared: 1 });
      },
    },
  },
];
