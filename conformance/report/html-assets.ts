/**
 * The HTML report's inline style and script. The script only reads and toggles the page (no data
 * of the run in it); the page's Content-Security-Policy allows exactly this script by its hash.
 */
import { createHash } from 'node:crypto';

export const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}
.passed{background:#e6f4ea}.failed{background:#fce8e6}.skipped{background:#fef7e0}
pre{background:#f6f8fa;padding:.6em;overflow:auto;white-space:pre-wrap;word-break:break-all}
.bar{display:inline-flex;width:16em;height:.9em;border:1px solid #bbb;vertical-align:middle;background:#fff}
.bar span{display:block;height:100%}.bar .passed{background:#34a853}.bar .failed{background:#ea4335}.bar .skipped{background:#fbbc04}
.bar.total{width:32em;height:1.2em}
details.endpoint{margin:.3em 0;border:1px solid #ddd;border-radius:4px;padding:.2em .6em}
details.endpoint>summary{cursor:pointer;font-weight:600}details.endpoint>summary code{margin-right:.6em}
.counts{font-weight:normal;color:#555;margin-left:.6em}
mark.diff{background:#ffd54f;outline:2px solid #e65100}.status.diff{background:#ffd54f;outline:2px solid #e65100}
.j-key{color:#6a1b9a}.j-elided{color:#777;font-style:italic}.j-string{color:#1b5e20}.j-number{color:#0d47a1}.j-boolean,.j-null{color:#b71c1c}
.toolbar button{margin-right:.5em}body.failures-only tr.passed,body.failures-only tr.skipped,body.failures-only details.endpoint:not(.has-failures){display:none}
h3{margin-top:1.2em}.summary{font-weight:bold}`;

export const SCRIPT = `(function () {
  var all = function () { return Array.prototype.slice.call(document.querySelectorAll('details.endpoint')); };
  var act = { expand: function () { all().forEach(function (d) { d.open = true; }); },
    collapse: function () { all().forEach(function (d) { d.open = false; }); },
    failures: function () { document.body.classList.toggle('failures-only'); } };
  document.querySelectorAll('[data-action]').forEach(function (button) {
    button.addEventListener('click', function () { act[button.getAttribute('data-action')](); });
  });
  var reveal = function () {
    var target = location.hash ? document.getElementById(location.hash.slice(1)) : null;
    for (var node = target; node; node = node.parentElement) if (node.tagName === 'DETAILS') node.open = true;
    if (target) target.scrollIntoView();
  };
  window.addEventListener('hashchange', reveal);
  reveal();
  document.body.setAttribute('data-script', 'ran');
})();`;

/** The Content-Security-Policy: nothing from outside, inline style, and only this script. */
export const CONTENT_SECURITY_POLICY = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${createHash('sha256').update(SCRIPT).digest('base64')}'`;
