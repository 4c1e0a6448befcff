import type { Figure } from './measure.js';

/** A number for people: thousands separated above 100, three significant digits below. */
function formatNumber(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const a = Math.abs(x);
  if (a >= 100) return Math.round(x).toLocaleString('en-US');
  if (a >= 10) return x.toFixed(1);
  if (a >= 1) return x.toFixed(2);
  return x.toPrecision(3);
}

const COLUMNS = ['suite', 'figure', 'median', 'spread (min–max)', 'unit', 'baseline', 'ratio', 'target', 'met?'];

/** The table's rows, one per figure, as strings in {@link COLUMNS} order. */
function tableRows(figures: Figure[]): string[][] {
  return figures.map((f) => [
    f.suite,
    f.name,
    formatNumber(f.median),
    `${formatNumber(f.min)}–${formatNumber(f.max)} (${f.runs})`,
    f.unit,
    f.baseline ? formatNumber(f.baseline.median) : '—',
    f.baseline ? f.baseline.ratioText : '—',
    f.target?.text ?? '—',
    f.target ? (f.target.met ? 'yes' : 'NO') : '—',
  ]);
}

/**
 * The one table `npm run bench` prints: a row per figure, numbers right
 * aligned, then a numbered key saying what each baseline is and any note.
 */
export function formatTable(figures: Figure[]): string {
  const rows = tableRows(figures);
  const numeric = new Set([2, 3, 5]);
  const widths = COLUMNS.map((c, i) => Math.max(c.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (numeric.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const out = [line(COLUMNS), widths.map((w) => '-'.repeat(w)).join('  ')];
  rows.forEach((r) => out.push(line(r)));
  out.push('', 'Baselines (measured in the same run) and notes:');
  figures.forEach((f) => {
    const parts = [f.baseline && `baseline: ${f.baseline.name}`, f.note].filter(Boolean);
    if (parts.length) out.push(`  ${f.suite} / ${f.name}: ${parts.join('; ')}`);
  });
  return out.join('\n');
}

/** The same table as Markdown, for docs/performance.md. */
export function formatMarkdownTable(figures: Figure[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const rows = tableRows(figures);
  return [
    `| ${COLUMNS.join(' | ')} |`,
    `| ${COLUMNS.map((_, i) => ([2, 3, 5].includes(i) ? '---:' : '---')).join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
  ].join('\n');
}
