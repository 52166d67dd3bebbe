/** The part of `chat-conformance --help` after the options: examples, exit statuses, environment. */
export const HELP_AFTER = `
Examples:
  chat-conformance                                        embedded reference server, every rule
  chat-conformance --server-feature-level 289             the embedded server emulating level 289
  chat-conformance --base-url http://localhost:9991       a development server (credentials bootstrapped)
  chat-conformance --base-url https://chat.example.com --config-file ~/.zuliprc --read-only
  chat-conformance --reporter spec --reporter junit=report.xml --reporter html=report.html
  chat-conformance --only 'users/*' --repro-dir repro     failing rules as repro/<rule>.mjs and .har
  chat-conformance --reporter json=last.json && chat-conformance --last-failed last.json
  chat-conformance --list --json                          the rules, machine-readable
  chat-conformance --endpoint 'GET /messages'             the rules of one endpoint
  chat-conformance --config ci.toml                       options from a file (default: ./chat-conformance.toml)
  chat-conformance --base-url https://staging.example.com -H 'X-Token: ...' --ca-file ca.pem --proxy http://proxy:3128
  chat-conformance --shard 2/3 --seed 42 --reporter json=shard-2.json    one part of a CI matrix
  chat-conformance merge-reports shard-*.json --reporter spec --reporter junit=report.xml
  chat-conformance --base-url https://chat.example.com --config-file owner.zuliprc --config-file member.zuliprc \\
    --allow-realm-writes --allow-user-creation --throwaway-email-domain example.org --fail-on-skip

Exit status:
  0  every selected rule passed or was skipped
  1  at least one rule failed, a cleanup failed (what is left changed is named in the report),
     or --fail-on-skip and a rule was skipped for a missing identity or capability
  2  bad usage: unknown option or value (on the command line or in the config file), no rule
     selected, a report path that cannot be written, reports that merge-reports refuses; or an unusable target: unreachable, silent past --request-timeout, not a chat
     server, credentials refused
  130, 143  interrupted by SIGINT, SIGTERM: the running rule stopped, cleanups ran, the report
     is partial (1 instead when a cleanup failed); a second signal exits at once

Environment:
  ZULIP_EMAIL, ZULIP_API_KEY, ZULIP_SITE   credentials, used when ZULIP_SITE matches the target
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY        proxy for --base-url targets when --proxy is not given
  NO_COLOR                                 no colours (any non-empty value)
  FORCE_COLOR                              colours even when stdout is not a terminal (0: never)
`;
