/**
 * The embedded bots the real server offers (`EMBEDDED_BOTS` in zerver/lib/integrations.py, in its
 * order) with the configuration template each ships: `register` serves them as
 * `realm_embedded_bots`, the config read from the bot's `<name>.conf` in the zulip_bots package
 * (zerver/lib/bot_config.py `load_bot_config_template`), `{}` for a bot without one. Of the six,
 * only `giphy` has such a file (zulip_bots/zulip_bots/bots/giphy/giphy.conf in the python-zulip-api
 * repository: a placeholder key). Data from the Zulip repositories, copyright Kandra Labs, Inc.
 * and contributors, licensed under the Apache License, Version 2.0
 * (https://www.apache.org/licenses/LICENSE-2.0).
 */
export interface EmbeddedBot {
  readonly name: string;
  readonly config: Readonly<Record<string, string>>;
}

export const EMBEDDED_BOTS: readonly EmbeddedBot[] = [
  { name: 'converter', config: {} },
  { name: 'encrypt', config: {} },
  { name: 'helloworld', config: {} },
  { name: 'virtual_fs', config: {} },
  { name: 'giphy', config: { key: '12345678' } },
  { name: 'followup', config: {} },
];
