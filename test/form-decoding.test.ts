/**
 * Urlencoded bodies are read as the WHATWG form parser (`URLSearchParams`) reads them, whatever
 * the fast path taken: `+` and escapes, escapes that are not UTF-8, names without `=`, empty
 * pairs, and the last of duplicate names winning.
 */
import t from 'tap';
import { readParams } from '../server/app/form.js';
import { makeRequest } from '../server/app/request.js';
import { MAX_PARAMETERS } from '../lib/input/limits.js';

const BODIES = [
  'a=1&b=2',
  'content=a+b%2Bc&topic=%F0%9F%98%80',
  'lone=%&bad=%ZZ&half=%4',
  'invalid-utf8=%FF%FE&after=%C3%A9',
  'noequals&=empty-name&&empty=',
  'x=1&x=2&x=3',
  'k%3Dv=a%26b',
  'space+name=value+with++pluses',
];

for (const body of BODIES) {
  t.test(`the body ${JSON.stringify(body)} reads as URLSearchParams reads it`, async (t) => {
    const request = makeRequest('POST', '/api/v1/messages', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    const params = await readParams(request);
    t.same([...params.body], [...new Map(new URLSearchParams(body))]);
  });
}

t.test('an 8 MiB body of `+` (spaces) is read in under 200 ms of CPU', async (t) => {
  const body = `content=${'+'.repeat(8 << 20)}`;
  const request = makeRequest('POST', '/api/v1/messages', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  const before = process.cpuUsage();
  const params = await readParams(request);
  const used = process.cpuUsage(before);
  t.equal(params.body.get('content')?.length, 8 << 20);
  t.ok((used.user + used.system) / 1000 < 200, `${Math.round((used.user + used.system) / 1000)} ms`);
});

const multipart = (fields: number): { contentType: string; body: string } => ({
  contentType: 'multipart/form-data; boundary=XyZ',
  body: `${Array.from({ length: fields }, (_, i) => `--XyZ\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nx\r\n`).join('')}--XyZ--\r\n`,
});
const urlencoded = (fields: number) => ({
  contentType: 'application/x-www-form-urlencoded',
  body: Array.from({ length: fields }, (_, i) => `f${i}=x`).join('&'),
});

for (const [kind, build] of [['urlencoded', urlencoded], ['multipart', multipart]] as const) {
  t.test(`an ${kind} body of ${MAX_PARAMETERS} fields is read; one more is refused before it is parsed`, async (t) => {
    const read = (fields: number) => {
      const { contentType, body } = build(fields);
      return readParams(makeRequest('POST', '/api/v1/messages', { headers: { 'content-type': contentType }, body }));
    };
    t.equal((await read(MAX_PARAMETERS)).body.size, MAX_PARAMETERS);
    await t.rejects(async () => read(MAX_PARAMETERS + 1), { message: `Too many parameters (limit: ${MAX_PARAMETERS}).` });
  });
}
