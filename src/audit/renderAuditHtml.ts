import type { AuditReport } from './AuditReport.js';
import { reportSections } from './reportSections.js';

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Horizontal bars, one a row, as the Insights mode draws them. */
function bars(rows: [string, number | string][]): string {
  const values = rows.map(([, v]) => Number(v));
  const max = Math.max(1, ...values);
  const rowH = 22;
  const labelW = 260;
  const W = 720;
  const height = rows.length * rowH + 4;
  const body = rows
    .map(([label, v], i) => {
      const w = ((W - labelW - 60) * Number(v)) / max;
      const y = i * rowH;
      return `<g transform="translate(0 ${y})"><text x="${labelW - 6}" y="${rowH / 2 + 4}" text-anchor="end">${escape(label)}</text><rect x="${labelW}" y="3" width="${w.toFixed(1)}" height="${rowH - 6}" rx="2"></rect><text x="${(labelW + w + 6).toFixed(1)}" y="${rowH / 2 + 4}">${escape(String(v))}</text></g>`;
    })
    .join('');
  return `<svg class="chart" viewBox="0 0 ${W} ${height}" role="img">${body}</svg>`;
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1f2328}
h1{font-size:1.5rem}h2{font-size:1.1rem;margin-top:2rem}table{border-collapse:collapse;width:100%}
td{border-bottom:1px solid #e5e7eb;padding:.25rem .5rem;vertical-align:top}td:last-child{text-align:right}
.note{background:#fff8e1;border-left:4px solid #f2b600;padding:.5rem 1rem}.muted{color:#57606a}
svg.chart{width:100%;height:auto;font-size:12px}svg.chart rect{fill:#c2410c}svg.chart text{fill:#1f2328}`;

/**
 * The report as one self-contained HTML page (no script, no external file): the overview, bar
 * charts of blocks by reason, tool, state and where the first block falls, the blocked sequences
 * and the kind each tool got.
 *
 * @example
 * writeFileSync('audit.html', renderAuditHtml(report));
 */
export function renderAuditHtml(report: AuditReport): string {
  const parts: string[] = [];
  for (const s of reportSections(report)) {
    parts.push(`<section><h2>${escape(s.title)}</h2>`);
    if (s.rows.length === 0) parts.push('<p class="muted">(none)</p>');
    else if (s.bars) parts.push(bars(s.rows));
    else
      parts.push(
        `<table>${s.rows.map(([k, v]) => `<tr><td>${escape(k)}</td><td>${escape(String(v))}</td></tr>`).join('')}</table>`,
      );
    if (s.note) parts.push(`<p class="muted">${escape(s.note)}</p>`);
    parts.push('</section>');
  }
  if (report.errorCount > 0) {
    parts.push(`<section><h2>Problems in the input (${report.errorCount})</h2><ul>`);
    for (const e of report.errors)
      parts.push(`<li>${escape(`${e.file}:${e.line}${e.path ? ` ${e.path}` : ''}: ${e.message}`)}</li>`);
    parts.push('</ul></section>');
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>assistant-safety audit</title><style>${STYLE}</style></head>
<body><h1>What the gate would have done</h1><p class="note">${escape(report.note)}</p>
${parts.join('\n')}
</body></html>
`;
}
