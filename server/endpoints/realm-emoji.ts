/** `GET /realm/emoji`: the custom emoji clients need to show statuses and reactions. */
import { realmEmojiState } from '../../lib/queries/realm-emoji.js';
import { authed, type RouteDef } from '../endpoint.js';

const getRealmEmoji = authed({
  params: {},
  run: ({ world }) => ({ emoji: realmEmojiState(world) }),
});

export const routes: RouteDef[] = [{ path: '/realm/emoji', methods: { GET: getRealmEmoji } }];
