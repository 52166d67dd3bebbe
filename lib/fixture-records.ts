/** The fixture's realm-wide and personal records: linkifiers, profile fields and data, custom emoji, drafts, presence. */
import type { User } from './entities/user.js';
import { FixtureError } from './fixture-parse.js';
import type { Fixture } from './fixture-schema.js';
import type { World } from './world.js';

/** What record loading needs from the fixture builder: the world so far and located lookups. */
export interface FixtureLookups {
  readonly world: World;
  user(email: string, where: string): User;
  channelId(name: string, where: string): number;
}

export function realmRecords(b: FixtureLookups, fixture: Fixture): void {
const w = b.world;
  (fixture.linkifiers ?? []).forEach((entry, order) => {
    const id = w.ids.next('linkifier');
    w.linkifiers.set(id, { id, pattern: entry.pattern, urlTemplate: entry.urlTemplate, order });
  });
  (fixture.customProfileFields ?? []).forEach((entry, order) => {
    w.ids.reserve('profileField', entry.id);
    w.customProfileFields.push({ ...entry, order });
  });
  (fixture.profileData ?? []).forEach((entry, i) => {
    const user = b.user(entry.user, `fixture.profileData[${i}]`);
    for (const [fieldId, value] of entry.values) {
      if (!w.customProfileFields.some((field) => String(field.id) === fieldId)) {
        throw new FixtureError(`fixture.profileData[${i}]: unknown custom profile field ${fieldId}`);
      }
      user.profileData.set(Number(fieldId), value);
    }
  });
  (fixture.customEmoji ?? []).forEach((entry, i) => {
    w.ids.reserve('emoji', entry.id);
    const authorId = entry.author ? b.user(entry.author, `fixture.customEmoji[${i}]`).id : null;
    w.realmEmoji.set(entry.id, { id: entry.id, name: entry.name, authorId, deactivated: false });
  });
}

export function personalRecords(b: FixtureLookups, fixture: Fixture): void {
const w = b.world;
  (fixture.drafts ?? []).forEach((entry, i) => {
    const where = `fixture.drafts[${i}]`;
    const user = b.user(entry.user, where);
    const to = entry.type === 'stream' ? entry.to.map((name) => b.channelId(name, where)) : entry.to.map((email) => b.user(email, where).id);
    const id = w.ids.next('draft');
    w.drafts.set(id, { id, userId: user.id, type: entry.type, to, topic: entry.topic, content: entry.content, lastEditTime: Math.floor(w.now() / 1000) + i });
  });
  if (fixture.presence === 'allHumans') {
    const now = w.now();
    for (const user of w.users.values()) {
      if (user.isBot || !user.isActive) continue;
      w.presence.set(user.id, { userId: user.id, lastActiveTime: now, lastConnectedTime: now, lastUpdateId: ++w.presenceSequence });
    }
  }
}
