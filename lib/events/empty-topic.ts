/**
 * The empty topic (`""`, valid since FL 334) as clients without the `empty_topic_name`
 * capability see it: the fixed English `realm_empty_topic_display_name`.
 */
export const EMPTY_TOPIC_DISPLAY_NAME = 'general chat';

/** `""` becomes "general chat" unless the client handles the empty topic itself. */
export function displayTopic(topic: string, emptyTopicName: boolean): string {
  return topic === '' && !emptyTopicName ? EMPTY_TOPIC_DISPLAY_NAME : topic;
}
