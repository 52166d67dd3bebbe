/** API keys and service tokens as the real server generates them. */
import { randomInt } from 'node:crypto';

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A fresh API key: 32 random letters and digits. */
export function generateApiKey(): string {
  let key = '';
  for (let i = 0; i < 32; i++) key += KEY_ALPHABET[randomInt(KEY_ALPHABET.length)];
  return key;
}
