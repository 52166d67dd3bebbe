/**
 * The channel folder rules prove their power: against deliberately broken variants of our server
 * the named rule fails; against the unbroken server every one of them passes at several levels.
 */
import { isModeratorOrAbove } from '../lib/entities/user.js';
import { asIago, type Breakage, caller, eachBreakageFailsItsRule, is, mapAnswers, passesUnbroken, rewriteParam } from './support/power-mutations.js';

const FOLDER_RULES = ['channel-folders/create-update-archive', 'channel-folders/validation-refused', 'channel-folders/administrators-only'];

const FOLDERS = /^\/channel_folders$/;
const CREATE = /^\/channel_folders\/create$/;
const FOLDER = /^\/channel_folders\/\d+$/;

const BREAKAGES: readonly Breakage[] = [
  {
    what: 'the description is listed unrendered',
    rule: 'channel-folders/create-update-archive',
    mutate: mapAnswers('GET', FOLDERS, (body) => Array.isArray(body.channel_folders) && (body.channel_folders as Array<Record<string, unknown>>).forEach((f) => (f.rendered_description = f.description))),
  },
  {
    what: 'archived folders are listed as active',
    rule: 'channel-folders/create-update-archive',
    mutate: mapAnswers('GET', FOLDERS, (body) => Array.isArray(body.channel_folders) && (body.channel_folders as Array<Record<string, unknown>>).forEach((f) => (f.is_archived = false))),
  },
  {
    what: 'archiving is ignored',
    rule: 'channel-folders/create-update-archive',
    mutate: rewriteParam('PATCH', FOLDER, 'is_archived', () => undefined),
  },
  {
    what: 'names over 60 characters are cut to 60',
    rule: 'channel-folders/validation-refused',
    mutate: rewriteParam('POST', CREATE, 'name', (name) => [...name].slice(0, 60).join('')),
  },
  {
    what: 'names are compared case-sensitively',
    rule: 'channel-folders/validation-refused',
    // A name in capitals is stored as another folder, as a case-sensitive check would let it.
    mutate: rewriteParam('POST', CREATE, 'name', (name) => (name !== name.toLowerCase() && name === name.toUpperCase() ? `${name}-2` : name)),
  },
  {
    what: 'moderators may create folders',
    rule: 'channel-folders/administrators-only',
    mutate: (request, next, app) => {
      const user = is(request, 'POST', CREATE) ? caller(app, request) : undefined;
      return next(user && isModeratorOrAbove(user) ? asIago(app, request) : request);
    },
  },
];

passesUnbroken('every channel folder rule', FOLDER_RULES, [415, 413, 389], 5);

eachBreakageFailsItsRule(BREAKAGES, 5);
