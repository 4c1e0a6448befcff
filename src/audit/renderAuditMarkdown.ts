import type { AuditReport } from './AuditReport.js';
import { reportSections } from './reportSections.js';

const cell = (v: string | number) => String(v).replace(/\|/g, '\\|').replace(/\n/g, ' ');

/**
 * The report as Markdown, for a pull request: an overview, then one table per part.
 *
 * @example
 * writeFileSync('audit.md', renderAuditMarkdown(report));
 */
export function renderAuditMarkdown(report: AuditReport): string {
  const lines = ['# What the gate would have done', '', `> ${report.note}`, ''];
  for (const s of reportSections(report)) {
    lines.push(`## ${s.title}`, '');
    if (s.rows.length === 0) lines.push('(none)', '');
    else {
      lines.push('| | |', '|---|---:|');
      for (const [k, v] of s.rows) lines.push(`| ${cell(k)} | ${cell(v)} |`);
      lines.push('');
    }
    if (s.note) lines.push(s.note, '');
  }
  if (report.errorCount > 0) {
    lines.push(`## Problems in the input (${report.errorCount})`, '');
    for (const e of report.errors) lines.push(`- ${e.file}:${e.line}${e.path ? ` ${e.path}` : ''}: ${e.message}`);
    lines.push('');
  }
  // A text file ends with one newline, whichever part came last.
  return lines.join('\n').trimEnd() + '\n';
}
