/**
 * Setting statuses (section 4.7; the real server's `check_update_user_status` and
 * `do_update_user_status`): `POST /users/me/status` and the administrators' `POST /users/{id}/status`.
 */
import { checkEmoji, emojiDataByName, normalizeReactionType } from '../../input/emoji.js';
import { badRequest } from '../../errors.js';
import type { UserStatus } from '../../entities/personal.js';
import { boolSetting, type User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { accessAudience } from '../../queries/users/users-admin.js';
import type { World } from '../../state/world.js';
import { applyPresenceEnabled } from './presence.js';

export interface StatusRequest {
  readonly away?: boolean;
  readonly statusText?: string;
  readonly emojiName?: string;
  readonly emojiCode?: string;
  readonly reactionType?: string;
}

interface CheckedStatus {
  readonly statusText?: string;
  readonly emoji?: { readonly name: string; readonly code: string; readonly type: string };
}

/** `check_update_user_status`: the checks of section 4.7 in the real server's order. */
export function checkStatus(world: World, request: StatusRequest): CheckedStatus {
  const statusText = request.statusText?.trim();
  if (request.away === undefined && statusText === undefined && request.emojiName === undefined) {
    throw badRequest('Client did not pass any new values.');
  }
  const name = request.emojiName;
  if (name === undefined) {
    if (request.emojiCode || request.reactionType) {
      throw badRequest('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
    }
    return statusText === undefined ? {} : { statusText };
  }
  let emoji: CheckedStatus['emoji'];
  if (name === '') {
    // An empty name clears the emoji, whatever code or type came with it.
    emoji = { name: '', code: '', type: 'unicode_emoji' };
  } else {
    let code = request.emojiCode;
    let type = request.reactionType === undefined ? undefined : normalizeReactionType(request.reactionType);
    if (code === undefined || type === undefined) {
      const found = emojiDataByName(world, name);
      code ??= found.emojiCode;
      type ??= found.reactionType;
    }
    checkEmoji(world, name, code, type);
    emoji = { name, code, type };
  }
  return { ...(statusText === undefined ? {} : { statusText }), emoji };
}

/**
 * Stores a checked status for `target` and sends a `user_status` event with only the fields
 * the request set. `away` (self endpoint only) mirrors `presence_enabled` from level 148.
 */
export function applyStatus(world: World, target: User, checked: CheckedStatus, away: boolean | undefined): void {
  const legacyAway = !world.has(FEATURES.AWAY_IS_PRESENCE_ENABLED);
  if (away !== undefined && !legacyAway && boolSetting(target, 'presence_enabled') === away) {
    target.settings.set('presence_enabled', !away);
    world.events.send({ type: 'user_settings', op: 'update', property: 'presence_enabled', value: !away }, [target.id]);
    applyPresenceEnabled(world, target, !away);
  }
  const status: UserStatus = world.statuses.get(target.id) ?? { statusText: '', emojiName: '', emojiCode: '', reactionType: 'unicode_emoji', timestamp: 0 };
  status.timestamp = world.now();
  if (legacyAway && away !== undefined) status.away = away;
  if (checked.statusText !== undefined) status.statusText = checked.statusText;
  if (checked.emoji) {
    status.emojiName = checked.emoji.name;
    status.emojiCode = checked.emoji.code;
    status.reactionType = checked.emoji.type;
  }
  world.statuses.set(target.id, status);
  const event: Record<string, unknown> = { type: 'user_status', user_id: target.id };
  if (away !== undefined) event.away = away;
  if (checked.statusText !== undefined) event.status_text = checked.statusText;
  if (checked.emoji) {
    event.emoji_name = checked.emoji.name;
    event.emoji_code = checked.emoji.code;
    event.reaction_type = checked.emoji.type;
  }
  world.events.send(event as { type: string }, accessAudience(world, target));
}
