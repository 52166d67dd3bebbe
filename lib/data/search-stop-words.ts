/**
 * The English stop words the real server's full-text search ignores, in the order of its list:
 * vendored data from the Zulip server repository (puppet/zulip/files/postgresql/zulip_english.stop,
 * the stop-word file of its PostgreSQL text-search configuration, which `POST /register` also
 * serves as `stop_words`). Copyright Kandra Labs, Inc. and contributors; licensed under the
 * Apache License, Version 2.0 (https://www.apache.org/licenses/LICENSE-2.0).
 */
export const SEARCH_STOP_WORDS: readonly string[] = (
  'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers ' +
  'herself it its itself they them their theirs themselves what which who whom this that these those am is are ' +
  'was were be been being have has had having do does did doing a an the and but if or because as until while of ' +
  'at by for with about against between into through during before after above below to from up down in out on ' +
  'off over under again further then once here there when where why how all any both each few more most other ' +
  'some such no nor not only own same so than too very s t can will just don should now b c d e f g h j k l m n ' +
  'o p q r u v w x y z'
).split(' ');
