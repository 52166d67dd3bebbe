/** What a bot has beyond its user account: default channels and its services. */

/** `Service.interface`: how an outgoing webhook formats its requests (1 generic, 2 Slack-compatible). */
export const SERVICE_INTERFACES: readonly number[] = [1, 2];

/** An outgoing webhook's endpoint, or an embedded bot's handler (`service_name`). */
export interface BotService {
  readonly name: string;
  baseUrl: string;
  interface: number;
  readonly token: string;
}

export interface BotProfile {
  defaultSendingStreamId: number | null;
  defaultEventsRegisterStreamId: number | null;
  defaultAllPublicStreams: boolean;
  /** Outgoing webhook and embedded bots have one; other bots none. */
  readonly services: BotService[];
  /** Incoming webhook (`integration_id`) and embedded bot configuration, key to value. */
  readonly config: Map<string, string>;
}

export function newBotProfile(): BotProfile {
  return { defaultSendingStreamId: null, defaultEventsRegisterStreamId: null, defaultAllPublicStreams: false, services: [], config: new Map() };
}
