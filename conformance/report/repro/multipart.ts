/** Splits a recorded `multipart/form-data` body back into fields and files, for `curl -F`. */

export interface MultipartPart {
  readonly name: string;
  /** Set for file parts. */
  readonly filename?: string;
  readonly contentType?: string;
  readonly value: string;
}

/** The boundary of a multipart content type, or undefined for other types. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data/i.test(contentType)) return undefined;
  return /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
}

/** The parts of `body`; undefined when it does not parse (then the raw body is replayed). */
export function parseMultipart(body: string, boundary: string): MultipartPart[] | undefined {
  const delimiter = `--${boundary}`;
  const sections = body.split(delimiter);
  if (sections.length < 2 || !sections[sections.length - 1]!.startsWith('--')) return undefined;
  const parts: MultipartPart[] = [];
  for (const section of sections.slice(1, -1)) {
    const split = section.indexOf('\r\n\r\n');
    if (!section.startsWith('\r\n') || split === -1 || !section.endsWith('\r\n')) return undefined;
    const head = section.slice(2, split);
    const value = section.slice(split + 4, -2);
    const disposition = /content-disposition:[^\r\n]*/i.exec(head)?.[0] ?? '';
    const name = /\bname="([^"]*)"/.exec(disposition)?.[1];
    if (name === undefined) return undefined;
    const filename = /\bfilename="([^"]*)"/.exec(disposition)?.[1];
    const contentType = /content-type:\s*([^\r\n]*)/i.exec(head)?.[1];
    parts.push({ name: decodeURIComponent(name), value, ...(filename === undefined ? {} : { filename: decodeURIComponent(filename) }), ...(contentType ? { contentType } : {}) });
  }
  return parts;
}
