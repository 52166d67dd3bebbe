/**
 * The texts Notification Bot posts to a channel's "channel events" topic when an administrator
 * renames it or changes its description, retention period or topics policy (as the real server
 * words them).
 */
import type { TopicsPolicy } from '../../entities/stream.js';
import type { User } from '../../entities/user.js';
import { silentMention } from '../../rendering/message-links.js';

const NO_DESCRIPTION = '*No description.*';

export function renameText(actor: User, oldName: string, newName: string): string {
  return `${silentMention(actor)} renamed channel **${oldName}** to **${newName}**.`;
}

export function descriptionText(actor: User, oldDescription: string, newDescription: string): string {
  const quote = (text: string) => `\n\`\`\`\` quote\n${text === '' ? NO_DESCRIPTION : text}\n\`\`\`\``;
  return (
    `${silentMention(actor)} changed the description for this channel.\n\n* **Old description:**${quote(oldDescription)}\n` +
    `* **New description:**${quote(newDescription)}`
  );
}

/** Retention values are days, -1 for forever; null (the realm default) is resolved by the caller. */
export function retentionText(actor: User, oldDays: number, newDays: number): string {
  const period = (days: number) => (days === -1 ? 'Forever' : `${days} days`);
  const summary =
    newDays === -1
      ? 'Messages in this channel will now be retained forever.'
      : `Messages in this channel will now be automatically deleted ${newDays} days after they are sent.`;
  return (
    `${silentMention(actor)} has changed the [message retention period](/help/message-retention-policy) for this channel:\n` +
    `* **Old retention period**: ${period(oldDays)}\n* **New retention period**: ${period(newDays)}\n\n${summary}`
  );
}

const TOPICS_POLICY_NAMES: Readonly<Record<TopicsPolicy, string>> = {
  inherit: 'Automatic',
  allow_empty_topic: '*general chat* topic allowed',
  disable_empty_topic: 'No *general chat* topic',
  empty_topic_only: 'Only *general chat* topic allowed',
};

export function topicsPolicyText(actor: User, oldPolicy: TopicsPolicy, newPolicy: TopicsPolicy): string {
  return (
    `${silentMention(actor)} changed the "Allow posting to the *general chat* topic?" setting from ` +
    `**${TOPICS_POLICY_NAMES[oldPolicy]}** to **${TOPICS_POLICY_NAMES[newPolicy]}**.`
  );
}

export const archivedText = (name: string): string => `Channel #**${name}** has been archived.`;
export const unarchivedText = (name: string): string => `Channel #**${name}** has been unarchived.`;
