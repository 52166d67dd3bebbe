/** Email syntax as Django's EmailValidator accepts it (close enough for the cases clients hit). */
const LOCAL = /^([-!#$%&'*+/=?^_`{}|~0-9A-Z]+(\.[-!#$%&'*+/=?^_`{}|~0-9A-Z]+)*|"([\x01-\x08\x0b\x0c\x0e-\x1f!#-[\]-\x7f]|\\[\x01-\x09\x0b\x0c\x0d-\x7f])*")$/i;
const DOMAIN = /^((?:[A-Z0-9](?:[A-Z0-9-]{0,61}[A-Z0-9])?\.)+)(?:[A-Z0-9-]{2,63}(?<!-))$/i;
const LITERAL = /^\[[0-9a-f:.]+\]$/i;

export function isValidEmail(value: string): boolean {
  if (value.length > 320) return false;
  const at = value.lastIndexOf('@');
  if (at <= 0 || at === value.length - 1) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (!LOCAL.test(local)) return false;
  if (domain === 'localhost' || LITERAL.test(domain)) return true;
  if (/[\s/?#@:\\[\]%]/.test(domain)) return false;
  let ascii: string;
  try {
    ascii = new URL(`http://${domain}`).hostname;
  } catch {
    return false;
  }
  return DOMAIN.test(ascii);
}
