/**
 * Custom emoji: `GET /realm/emoji` (everyone), `POST /realm/emoji/{emoji_name}` (a multipart
 * upload; members and above, never guests or bots) and `DELETE /realm/emoji/{emoji_name}`
 * (administrators, or the emoji's author).
 */
import { addRealmEmoji, deactivateRealmEmoji } from '../../../lib/actions/realm/realm-emoji.js';
import { notForBots, notForGuests } from '../../../lib/errors.js';
import { isGuest } from '../../../lib/entities/user.js';
import { realmEmojiState } from '../../../lib/queries/realm/realm-emoji.js';
import { cleanUploadName } from '../../../lib/uploads/names.js';
import { type AuthedContext, authed, type RouteDef } from '../../app/endpoint.js';
import type { UploadedFile } from '../../app/form.js';

const getRealmEmoji = authed({
  params: {},
  run: ({ world }) => ({ emoji: realmEmojiState(world) }),
});

/** As the real server's `require_member_or_admin`. */
const membersOnly = ({ user }: AuthedContext): void => {
  if (isGuest(user)) throw notForGuests();
  if (user.isBot) throw notForBots();
};

/** The request's files as Django counts them: one per form field (the last file of a field wins). */
function filesByField(files: readonly UploadedFile[]): UploadedFile[] {
  const byField = new Map<string, UploadedFile>();
  for (const file of files) if (cleanUploadName(file.fileName) !== undefined) byField.set(file.fieldName, file);
  return [...byField.values()];
}

const uploadEmoji = authed({
  gate: membersOnly,
  params: {},
  run({ world, user, path, params }) {
    addRealmEmoji(world, user, path.get('emoji_name') ?? '', filesByField(params.files));
    return {};
  },
});

const deleteEmoji = authed({
  reportsIgnored: false,
  params: {},
  run({ world, user, path }) {
    deactivateRealmEmoji(world, user, path.get('emoji_name') ?? '');
    return {};
  },
});

export const routes: RouteDef[] = [
  { path: '/realm/emoji', methods: { GET: getRealmEmoji } },
  { path: '/realm/emoji/{emoji_name:path}', methods: { POST: uploadEmoji, DELETE: deleteEmoji } },
];
