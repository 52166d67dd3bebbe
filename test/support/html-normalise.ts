/**
 * The HTML normalisation under which our rendering is compared with the real server's: two
 * documents are the same when they differ only in
 *  1. the order of the attributes inside a start tag (attributes are sorted by name, each
 *     written as `name="value"` with the value kept exactly as written), and
 *  2. whitespace between two tags that contains a line break (`</p>\n<p>` is `</p><p>`), outside
 *     `<pre>` where every character is content.
 * Nothing else is touched: text, entities, spaces inside text and between inline tags on one line,
 * tag names and attribute values must match exactly. The scan is a single pass (linear).
 */

type Piece = { readonly kind: 'tag'; readonly text: string; readonly name: string; readonly closing: boolean } | { readonly kind: 'text'; readonly text: string };

/** Splits `html` into tags and text; a `<` that does not open a tag is text. */
function pieces(html: string): Piece[] {
  const out: Piece[] = [];
  let text = '';
  let i = 0;
  while (i < html.length) {
    const tag = html[i] === '<' ? /^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)/.exec(html.slice(i, i + 64)) : null;
    if (!tag) {
      text += html[i];
      i++;
      continue;
    }
    let end = i + tag[0].length;
    let quote = '';
    while (end < html.length && (quote !== '' || html[end] !== '>')) {
      const c = html[end] as string;
      if (quote === '' && (c === '"' || c === "'")) quote = c;
      else if (c === quote) quote = '';
      end++;
    }
    if (text !== '') out.push({ kind: 'text', text });
    text = '';
    out.push({ kind: 'tag', text: html.slice(i, end + 1), name: (tag[2] as string).toLowerCase(), closing: tag[1] === '/' });
    i = end + 1;
  }
  if (text !== '') out.push({ kind: 'text', text });
  return out;
}

const ATTRIBUTE = /([^\s=/>]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g;

/** A start tag with its attributes sorted by name. */
function sortedTag(tag: string, name: string): string {
  const body = tag.slice(1 + name.length, tag.endsWith('/>') ? -2 : -1);
  const attributes = [...body.matchAll(ATTRIBUTE)].map((match) => {
    const raw = match[2];
    const value = raw === undefined ? '' : raw.startsWith('"') || raw.startsWith("'") ? raw.slice(1, -1) : raw;
    return `${match[1] as string}="${value}"`;
  });
  attributes.sort();
  return `<${name}${attributes.map((a) => ` ${a}`).join('')}>`;
}

/** `html` in the normal form described above. */
export function normaliseHtml(html: string): string {
  const list = pieces(html);
  let out = '';
  let preDepth = 0;
  list.forEach((piece, index) => {
    if (piece.kind === 'tag') {
      if (piece.name === 'pre') preDepth += piece.closing ? -1 : 1;
      out += piece.closing ? piece.text : sortedTag(piece.text, piece.name);
      return;
    }
    const betweenTags = list[index - 1]?.kind === 'tag' && list[index + 1]?.kind === 'tag';
    if (preDepth === 0 && betweenTags && /^\s*$/.test(piece.text) && piece.text.includes('\n')) return;
    out += piece.text;
  });
  return out;
}
