/** Shared steps of the message-reading tests: send through the API, read IDs back. */
import type { Client, Params, Reply, TestServer } from './harness.js';

async function sent(reply: Reply): Promise<number> {
  if (reply.status !== 200) throw new Error(`send failed: ${reply.text}`);
  return reply.body.id as number;
}

/** Sends a channel message as `email`; returns its ID. */
export const sendToChannel = (s: TestServer, email: string, channel: string, topic: string, content: string): Promise<number> =>
  s.as(email).post('/messages', { type: 'stream', to: channel, topic, content }).then(sent);

/** Sends a direct message as `email` to the given user IDs; returns its ID. */
export const sendDirect = (s: TestServer, email: string, to: readonly number[], content: string): Promise<number> =>
  s.as(email).post('/messages', { type: 'direct', to: JSON.stringify(to), content }).then(sent);

/** `GET /messages` and the IDs it answered (throws on an error reply). */
export async function fetchIds(client: Client, params: Params): Promise<number[]> {
  const reply = await client.get('/messages', params);
  if (reply.status !== 200) throw new Error(`GET /messages failed: ${reply.text}`);
  return (reply.body.messages as { id: number }[]).map((m) => m.id);
}
