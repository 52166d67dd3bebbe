/**
 * The command that reaches the same target with the same identities and settings again, printed
 * in failure reports as the replay command. Header values that look like credentials and a proxy's
 * password are replaced by `<redacted>`: reports are shared, and the person replaying has them.
 */
import { looksLikeCredential, redactedUrl } from '../targets/connection.js';
import type { CliOptions } from './options.js';

/** `Name: value`, the value hidden when the name says it is a secret. */
function shownHeader(line: string): string {
  const colon = line.indexOf(':');
  const name = line.slice(0, colon).trim();
  return looksLikeCredential(name) ? `${name}: <redacted>` : line;
}

export function invocationFor(options: CliOptions): string[] {
  const args = ['chat-conformance'];
  if (options.baseUrl !== undefined) args.push('--base-url', options.baseUrl);
  options.emails.forEach((email, i) => args.push('--email', email, '--api-key', options.apiKeys[i] ?? ''));
  for (const file of options.configFiles) args.push('--config-file', file);
  if (!options.bootstrap) args.push('--no-bootstrap');
  for (const header of options.headers) args.push('-H', shownHeader(header));
  if (options.proxy !== undefined) args.push('--proxy', redactedUrl(options.proxy));
  if (options.caFile !== undefined) args.push('--ca-file', options.caFile);
  if (options.insecure) args.push('--insecure');
  if (options.serverFeatureLevel !== undefined) args.push('--server-feature-level', String(options.serverFeatureLevel));
  if (options.featureLevel !== undefined) args.push('--feature-level', String(options.featureLevel));
  if (options.timeout !== undefined) args.push('--timeout', String(options.timeout));
  if (options.requestTimeout !== undefined) args.push('--request-timeout', String(options.requestTimeout));
  if (options.strictDocs) args.push('--strict-docs');
  if (options.allowRealmWrites) args.push('--allow-realm-writes');
  if (options.allowUserCreation) args.push('--allow-user-creation');
  if (options.throwawayEmailDomain !== undefined) args.push('--throwaway-email-domain', options.throwawayEmailDomain);
  return args;
}
