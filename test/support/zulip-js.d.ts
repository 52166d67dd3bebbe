/** The parts of zulip-js (a real client, CommonJS without types) that the tests use. */
declare module 'zulip-js' {
  type Params = Record<string, unknown>;
  type Reply = Promise<Record<string, any>>;
  interface ZulipClient {
    config: { apiKey: string; apiURL: string };
    callEndpoint(path: string, method?: string, params?: Params): Reply;
    users: {
      retrieve(params?: Params): Reply;
      me: {
        getProfile(): Reply;
        subscriptions: { add(params: Params): Reply; remove(params: Params): Reply };
        alertWords: { retrieve(params?: Params): Reply };
      };
    };
    streams: {
      getStreamId(name: string): Reply;
      subscriptions: { retrieve(params?: Params): Reply };
      retrieve(params?: Params): Reply;
      deleteById(params: Params): Reply;
    };
    filters: { retrieve(params?: Params): Reply };
    messages: { send(params: Params): Reply; retrieve(params: Params): Reply; update(params: Params): Reply; getHistoryById?(params: Params): Reply };
    queues: { register(params?: Params): Reply; deregister(params: Params): Reply };
    events: { retrieve(params: Params): Reply };
    typing: { send(params: Params): Reply };
    server: { settings(params?: Params): Reply };
  }
  export default function zulip(config: { username: string; password?: string; apiKey?: string; realm: string }): Promise<ZulipClient>;
}
