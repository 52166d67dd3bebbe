/** HTML escaping as the real server's renderer writes it. */

const HTML_ESCAPES = new Map([
  ['&', '&amp;'],
  ['<', '&lt;'],
  ['>', '&gt;'],
  ['"', '&quot;'],
  ["'", '&#39;'],
]);

/** Escapes text content; quotes stay as they are, as Python-Markdown leaves them in text. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>]/g, (c) => HTML_ESCAPES.get(c) ?? c);
}

/** Escapes an attribute value, or the body of a code block (Pygments escapes quotes there too). */
export function escapeAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES.get(c) ?? c);
}

/** Django's `escape`, which the real server uses for a `math` fence KaTeX cannot parse. */
export function escapeAllQuotes(text: string): string {
  return escapeAttribute(text).replace(/&#39;/g, '&#x27;');
}
