/**
 * Reporting checked exactly on every run (sections 4.14, 8): every `report_type`; the
 * description at 1000 and at 1001 characters, counted as sent (nothing is stripped, so a
 * description of spaces explains an `other` report); and who may report what: any role, one's
 * own message too, the same message again.
 */
import { expectError, expectSuccess } from '../../expect/assert.js';
import { runChannel, sendToChannel } from '../support/message-fixtures.js';
import { DESCRIPTION_LIMIT, report, REPORT_TYPES, reportingRule } from './report-message-support.js';
import type { Rule } from '../types.js';


/** Exactly `length` characters, every other one astral. */
const descriptionOf = (length: number): string => Array.from({ length }, (_, i) => (i % 2 === 0 ? 'd' : '📝')).join('');

const typesAndLimit = reportingRule({
  id: 'report-message/each-type-and-exact-description-limit',
  title: "every report_type is accepted on every run; a description of exactly 1000 characters is accepted and of 1001 refused with 400 BAD_REQUEST, counted as sent (1000 characters plus a space is 1001); a description of spaces explains an 'other' report",
  section: '4.14; 8',
}, async (ctx, { message }) => {
  for (const reportType of REPORT_TYPES) expectSuccess(await report(ctx, message.id, { report_type: reportType, description: ctx.name(reportType) }), { ignored: [] });
  expectSuccess(await report(ctx, message.id, { report_type: 'spam', description: descriptionOf(DESCRIPTION_LIMIT) }));
  for (const description of [descriptionOf(DESCRIPTION_LIMIT + 1), `${descriptionOf(DESCRIPTION_LIMIT)} `]) {
    expectError(await report(ctx, message.id, { report_type: 'norms', description }), { status: 400, code: 'BAD_REQUEST' });
  }
  expectSuccess(await report(ctx, message.id, { report_type: 'other', description: '   ' }));
});

const whoMayReport = reportingRule({
  id: 'report-message/any-role-own-message-and-again',
  title: 'a member reports the same message twice, and its own message; a guest reports a message of a channel it is in; each answers success',
  section: '4.14; 5',
  needs: ['guest'],
}, async (ctx, { message }) => {
  for (const time of ['first', 'second']) expectSuccess(await report(ctx, message.id, { report_type: 'spam', description: `${ctx.name('again')} ${time}` }));
  const channel = await runChannel(ctx);
  const own = await sendToChannel(ctx.as('member'), channel.id, ctx.name('topic'), ctx.name('own-message'));
  expectSuccess(await report(ctx, own, { report_type: 'inappropriate', description: ctx.name('own') }));
  expectSuccess(await ctx.as('guest').post(`/messages/${message.id}/report`, { report_type: 'harassment', description: ctx.name('guest') }));
});

export const rules: readonly Rule[] = [typesAndLimit, whoMayReport];
