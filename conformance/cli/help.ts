/** The part of `chat-conformance --help` after the options: examples, exit statuses, environment. */
export const HELP_AFTER = `
Examples:
  chat-conformance                                        embedded reference server, every rule
  chat-conformance --server-feature-level 289             the embedded server emulating level 289
  chat-conformance --base-url http://localhost:9991       a development server (credentials bootstrapped)
  chat-conformance --base-url https://chat.example.com --config-file ~/.zuliprc --read-only
  chat-conformance --reporter spec --reporter junit=report.xml --reporter html=report.html
  chat-conformance --only 'users/*' --repro-dir repro     failing rules as repro/<rule>.sh and .har
  chat-conformance --list --json                          the rules, machine-readable

Exit status:
  0  every selected rule passed or was skipped
  1  at least one rule failed
  2  bad usage: unknown option or value, no rule selected, a report path that cannot be
     written; or an unusable target: unreachable, silent past --request-timeout, not a chat
     server, credentials refused

Environment:
  ZULIP_EMAIL, ZULIP_API_KEY, ZULIP_SITE   credentials, used when ZULIP_SITE matches the target
  NO_COLOR                                 no colours (any non-empty value)
  FORCE_COLOR                              colours even when stdout is not a terminal (0: never)
`;
