/** Report formats: `spec` (human), `tap`, `json`, `junit`, `html` (self-contained page). */
import type { SuiteResult } from '../results.js';
import { renderHtml } from './html.js';
import { renderJson } from './json.js';
import { renderJunit } from './junit.js';
import { renderSpec } from './spec.js';
import { renderTap } from './tap.js';

export const REPORT_FORMATS = ['spec', 'tap', 'json', 'junit', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export function isReportFormat(name: string): name is ReportFormat {
  return (REPORT_FORMATS as readonly string[]).includes(name);
}

/** The whole report as text. `color` applies to `spec` only. */
export function renderReport(format: ReportFormat, result: SuiteResult, options: { color?: boolean } = {}): string {
  switch (format) {
    case 'spec':
      return renderSpec(result, options);
    case 'tap':
      return renderTap(result);
    case 'json':
      return renderJson(result);
    case 'junit':
      return renderJunit(result);
    case 'html':
      return renderHtml(result);
  }
}
