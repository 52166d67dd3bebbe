/** The development page's stylesheet (inline, so the page loads nothing else). */
export const PAGE_STYLE = String.raw`
:root { color-scheme: light dark; --line: #8884; --muted: #888; --accent: #2b6cb0; --bad: #c53030; --good: #2f855a; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, sans-serif; }
header { display: flex; gap: 1rem; align-items: baseline; flex-wrap: wrap; padding: .6rem 1rem; border-bottom: 1px solid var(--line); }
header h1 { font-size: 1.1rem; margin: 0; }
.muted, small { color: var(--muted); }
main { display: grid; grid-template-columns: repeat(auto-fit, minmax(26rem, 1fr)); gap: 1rem; padding: 1rem; }
section { border: 1px solid var(--line); border-radius: 6px; padding: .5rem .75rem; min-width: 0; overflow: auto; max-height: 28rem; }
h2 { font-size: 1rem; margin: .2rem 0 .5rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .15rem .4rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { position: sticky; top: 0; background: Canvas; }
code, .mono { font-family: ui-monospace, monospace; font-size: 12px; }
.role { font-weight: 600; }
.role-owner, .role-administrator { color: var(--accent); }
.role-guest { color: var(--muted); }
button { font: inherit; font-size: 12px; padding: 0 .5rem; cursor: pointer; }
ol { list-style: none; margin: 0; padding: 0; }
#messages li { border-bottom: 1px solid var(--line); padding: .3rem 0; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; margin: .2rem 0; }
iframe { width: 100%; height: 8rem; border: 1px dashed var(--line); background: #fff; }
#log li { font-family: ui-monospace, monospace; font-size: 12px; white-space: pre-wrap; overflow-wrap: anywhere; }
.log-event { color: var(--good); }
.status-4xx, .status-5xx, .fault { color: var(--bad); }
#status.down { color: var(--bad); }
`;
