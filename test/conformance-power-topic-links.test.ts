/**
 * The topic link rule proves its power: against deliberately broken variants of our server (no
 * /with/ operand, another message named, an operand where the renderer may read no message of
 * the topic) the rule fails; against the unbroken server it passes at levels 415, 399 (oldest)
 * and 346 (no operand).
 */
import { type Breakage, eachBreakageFailsItsRule, mapAnswers, passesUnbroken } from './support/power-mutations.js';

const RULE = 'topic-links/with-operand';
const RENDER = /^\/messages\/render$/;
const rewriteRendered = (change: (html: string) => string) =>
  mapAnswers('POST', RENDER, (body) => {
    if (typeof body.rendered === 'string') body.rendered = change(body.rendered);
  });

const BREAKAGES: readonly Breakage[] = [
  { what: 'topic links carry no /with/ operand', rule: RULE, mutate: rewriteRendered((html) => html.replace(/\/with\/\d+"/g, '"')) },
  { what: 'the operand names the message before the right one', rule: RULE, mutate: rewriteRendered((html) => html.replace(/\/with\/(\d+)"/g, (_, id: string) => `/with/${Number(id) - 1}"`)) },
  { what: 'a link gets an operand even when the renderer may read no message of the topic', rule: RULE, mutate: rewriteRendered((html) => html.replace(/(\/topic\/[^"/]*)"/g, '$1/with/1"')) },
];

passesUnbroken('the topic link rule', [RULE], [415, 399, 346], 1);

eachBreakageFailsItsRule(BREAKAGES, 1);
