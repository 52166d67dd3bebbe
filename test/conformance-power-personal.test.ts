/**
 * The personal-state rules (settings defaults, presence, statuses, drafts, user groups and
 * subgroups, navigation views) prove their power: against deliberately broken variants of our
 * server the named rule fails; against the unbroken server every one of them passes at several
 * feature levels.
 */
import t from 'tap';
import { runSuite } from '../conformance/index.js';
import { isAdministrator, isModeratorOrAbove, type User } from '../lib/entities/user.js';
import { brokenApp, mapJsonBody } from './support/conformance.js';
import { asIago, type Breakage, caller, eachBreakageFailsItsRule, formOf, idIn, is, passesUnbroken, rewriteParam, SUCCESS, withForm } from './support/power-mutations.js';

const PERSONAL_RULES = ['user-settings-defaults/*', 'presence/*', 'user-status/*', 'drafts/*', 'user-groups/*', 'user-group-subgroups/*', 'navigation-views/*'];

const isModerator = (user: User | undefined): boolean => user !== undefined && isModeratorOrAbove(user) && !isAdministrator(user);

const isJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

const DEFAULTS = /^\/realm\/user_settings_defaults$/;
const PRESENCE = /^\/users\/me\/presence$/;
const STATUS = /^\/users\/\d+\/status$/;
const DRAFT = /^\/drafts\/\d+$/;
const SUBGROUPS = /^\/user_groups\/\d+\/subgroups$/;

const BREAKAGES: readonly Breakage[] = [
  {
    what: 'a member may change the realm defaults',
    rule: 'user-settings-defaults/non-admin-refused',
    mutate: (request, next, app) => (is(request, 'PATCH', DEFAULTS) ? next(asIago(app, request)) : next(request)),
  },
  {
    what: 'values that are not JSON are dropped instead of refused',
    rule: 'user-settings-defaults/invalid-values-refused',
    mutate: (request, next) => {
      if (!is(request, 'PATCH', DEFAULTS)) return next(request);
      const form = formOf(request);
      for (const [name, value] of [...form]) if (!isJson(value) && !/^[a-z_-]+$/.test(value)) form.delete(name);
      return next(withForm(request, form));
    },
  },
  {
    what: 'existing users are given the new defaults too',
    rule: 'user-settings-defaults/only-new-users-get-defaults',
    mutate: async (request, next, app) => {
      const response = await next(request);
      if (!is(request, 'PATCH', DEFAULTS) || response.status !== 200) return response;
      for (const [name, value] of formOf(request)) {
        const parsed: unknown = isJson(value) ? JSON.parse(value) : value;
        for (const user of app.world.users.values()) if (user.settings.has(name)) user.settings.set(name, parsed as never);
      }
      return response;
    },
  },
  {
    what: 'unknown setting names are not reported',
    rule: 'user-settings-defaults/unknown-names-ignored',
    mutate: async (request, next) => {
      const response = await next(request);
      return is(request, 'PATCH', DEFAULTS) ? mapJsonBody(response, (body) => delete body.ignored_parameters_unsupported) : response;
    },
  },
  {
    what: 'presence_last_update_id falls behind the last_update_id passed',
    rule: 'presence/last-update-id',
    mutate: async (request, next) => {
      const response = await next(request);
      const passed = Number(formOf(request).get('last_update_id'));
      if (!is(request, 'POST', PRESENCE) || !Number.isInteger(passed) || passed <= 0) return response;
      return mapJsonBody(response, (body) => (body.presence_last_update_id = passed - 1));
    },
  },
  {
    what: 'ping_only is ignored (presence data comes back)',
    rule: 'presence/ping-only-returns-no-data',
    mutate: rewriteParam('POST', PRESENCE, 'ping_only', () => undefined),
  },
  {
    what: 'history_limit_days is ignored',
    rule: 'presence/history-limit-zero-returns-nothing',
    mutate: rewriteParam('POST', PRESENCE, 'history_limit_days', () => undefined),
  },
  {
    what: 'slim_presence is ignored',
    rule: 'presence/modern-format-with-slim-presence',
    mutate: rewriteParam('POST', PRESENCE, 'slim_presence', () => undefined),
  },
  {
    what: 'the status text limit counts UTF-16 units',
    rule: 'user-status/status-text-limit',
    mutate: (request, next) => {
      const text = is(request, 'POST', STATUS) ? (formOf(request).get('status_text') ?? '') : '';
      if (text.trim().length <= 60) return next(request);
      return Promise.resolve({ ...SUCCESS, status: 400, body: '{"result":"error","msg":"status_text is too long (limit: 60 characters)","code":"BAD_REQUEST"}\n' });
    },
  },
  {
    what: "a moderator may set another user's status",
    rule: 'user-status/non-admin-refused',
    mutate: (request, next, app) => (is(request, 'POST', STATUS) && isModerator(caller(app, request)) ? next(asIago(app, request)) : next(request)),
  },
  {
    what: 'emoji_code without emoji_name is dropped instead of refused',
    rule: 'user-status/emoji-code-without-name-refused',
    mutate: (request, next) => {
      const form = formOf(request);
      if (!is(request, 'POST', STATUS) || form.has('emoji_name')) return next(request);
      form.delete('emoji_code');
      form.delete('reaction_type');
      return next(withForm(request, form));
    },
  },
  {
    what: "another user's draft can be edited",
    rule: 'drafts/edit-other-users-draft-not-found',
    mutate: (request, next, app) => {
      const draft = is(request, 'PATCH', DRAFT) ? app.world.drafts.get(idIn(request)) : undefined;
      const user = caller(app, request);
      if (draft && user) app.world.drafts.set(draft.id, { ...draft, userId: user.id });
      return next(request);
    },
  },
  {
    what: 'an edit keeps the old topic',
    rule: 'drafts/edit-replaces-draft',
    mutate: async (request, next, app) => {
      const draft = is(request, 'PATCH', DRAFT) ? app.world.drafts.get(idIn(request)) : undefined;
      const topic = draft?.topic;
      const response = await next(request);
      if (draft && topic !== undefined && response.status === 200) draft.topic = topic;
      return response;
    },
  },
  {
    what: 'null bytes are stripped from drafts instead of refused',
    rule: 'drafts/edit-null-bytes-refused',
    mutate: rewriteParam('PATCH', DRAFT, 'draft', (value) => value.replace(/\\u0000/g, '')),
  },
  {
    what: 'deleting a draft answers success and keeps it',
    rule: 'drafts/model-sequence',
    mutate: (request, next) => (is(request, 'DELETE', DRAFT) ? Promise.resolve(SUCCESS) : next(request)),
  },
  {
    what: 'unknown members are dropped from a new group',
    rule: 'user-groups/create-nonexistent-member-refused',
    mutate: rewriteParam('POST', /^\/user_groups\/create$/, 'members', (value) => JSON.stringify((JSON.parse(value) as number[]).filter((id) => id < 1000))),
  },
  {
    what: "can_manage_group takes 'role:everyone'",
    rule: 'user-groups/create-can-manage-group',
    mutate: (request, next, app) => {
      const everyone = app.world.systemGroupId('role:everyone');
      const members = app.world.systemGroupId('role:members');
      return rewriteParam('POST', /^\/user_groups\/create$/, 'can_manage_group', (value) => (value === String(everyone) ? String(members) : value))(request, next, app);
    },
  },
  {
    what: 'a subgroup that closes a cycle is added anyway',
    rule: 'user-group-subgroups/cycle-refused',
    mutate: async (request, next, app) => {
      const response = await next(request);
      const add = formOf(request).get('add');
      if (!is(request, 'POST', SUBGROUPS) || response.status !== 400 || add === null) return response;
      const group = app.world.groups.get(idIn(request));
      if (!group || group.isSystemGroup) return response;
      for (const id of JSON.parse(add) as number[]) if (app.world.groups.has(id)) group.subgroups.add(id);
      return SUCCESS;
    },
  },
  {
    what: 'deleting a group that is no direct subgroup succeeds',
    rule: 'user-group-subgroups/already-or-not-a-subgroup-refused',
    mutate: async (request, next) => {
      const response = await next(request);
      return is(request, 'POST', SUBGROUPS) && !formOf(request).has('add') && response.status === 400 ? SUCCESS : response;
    },
  },
  {
    what: 'recursive subgroups are listed as the direct ones',
    rule: 'user-group-subgroups/model-sequence',
    mutate: (request, next) => (is(request, 'GET', SUBGROUPS) ? next({ ...request, query: [...request.query.filter(([name]) => name !== 'direct_subgroup_only'), ['direct_subgroup_only', 'true']] }) : next(request)),
  },
  {
    what: 'an unknown fragment answers 400',
    rule: 'navigation-views/unknown-fragment-not-found',
    mutate: async (request, next) => {
      const response = await next(request);
      return is(request, 'PATCH', /^\/navigation_views\//) && response.status === 404 ? { ...response, status: 400 } : response;
    },
  },
  {
    what: 'a custom name on a built-in view is dropped instead of refused',
    rule: 'navigation-views/built-in-custom-name-refused',
    mutate: rewriteParam('PATCH', /^\/navigation_views\/(inbox|recent|feed|drafts|narrow\/.*)$/, 'name', () => undefined),
  },
  {
    what: 'fragments are stored lower-cased',
    rule: 'navigation-views/hostile-fragments-are-data',
    mutate: rewriteParam('POST', /^\/navigation_views$/, 'fragment', (value) => value.toLowerCase()),
  },
  {
    what: 'a new name in an edit is ignored',
    rule: 'navigation-views/model-sequence',
    mutate: rewriteParam('PATCH', /^\/navigation_views\//, 'name', () => undefined),
  },
];

passesUnbroken('every personal-state rule', PERSONAL_RULES, [415, 300, 100], 10);

t.test('the personal-state rules leave the realm as they found it: defaults, statuses, drafts, views restored; groups deactivated', async (t) => {
  const { app, handler } = brokenApp();
  const world = app.world;
  const statusText = (userId: number) => `${world.statuses.get(userId)?.statusText ?? ''}|${world.statuses.get(userId)?.emojiName ?? ''}`;
  // Users the run creates (throwaway users) are not part of the comparison.
  const users = [...world.users.keys()];
  const snapshot = () => ({
    defaults: [...world.userSettingsDefaults].sort(),
    statuses: users.map(statusText),
    drafts: [...world.drafts.values()].map((draft) => `${draft.userId}:${draft.id}`).sort(),
    views: [...world.navigationViews].filter(([, views]) => views.length > 0).map(([userId, views]) => `${userId}:${views.map((view) => `${view.fragment}=${view.isPinned}`).join(',')}`).sort(),
  });
  const before = snapshot();
  const groupsBefore = new Set(world.groups.keys());
  const result = await runSuite({ handler, numRuns: 5, seed: 4, only: PERSONAL_RULES });
  app.close();
  t.ok(result.ok);
  t.same(snapshot(), before);
  const created = [...world.groups.values()].filter((group) => !groupsBefore.has(group.id));
  t.ok(created.length > 10, `${created.length} groups created`);
  t.same(created.filter((group) => !group.deactivated).map((group) => group.name), []);
});

eachBreakageFailsItsRule(BREAKAGES, 25);
