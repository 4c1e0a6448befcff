import type { ReactNode } from 'react';

/*
 * Plain SVG bar charts (docs/observability.md says why no library): each bar
 * is a button-like <rect> with a test id, a title and a click handler, so
 * every mark links to the entries behind it.
 */

/** One bar, possibly stacked out of segments. */
export interface BarSegment {
  key: string;
  label: string;
  value: number;
  color: string;
  onClick: () => void;
  /** Extra attributes for tests: `data-*`. */
  data?: Record<string, string>;
}

export interface BarGroup {
  key: string;
  label: string;
  segments: BarSegment[];
}

const W = 560;
const H = 180;
const PAD = { left: 36, right: 8, top: 8, bottom: 34 };

const dataAttrs = (data: Record<string, string> | undefined) =>
  Object.fromEntries(Object.entries(data ?? {}).map(([k, v]) => [`data-${k}`, v]));

/** Vertical bars, stacked by segment, one group per x position. */
export function StackedBars({ groups, testId }: { groups: BarGroup[]; testId: string }) {
  const max = Math.max(1, ...groups.map((g) => g.segments.reduce((a, s) => a + s.value, 0)));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(1, groups.length);
  const barW = Math.max(2, Math.min(48, slot * 0.7));
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  return (
    <svg className="chart" viewBox={`0 0 ${W} ${H}`} data-testid={testId} role="img">
      <line x1={PAD.left} x2={W - PAD.right} y1={y(0)} y2={y(0)} className="axis" />
      <text x={PAD.left - 4} y={y(max) + 4} className="tick" textAnchor="end">
        {max}
      </text>
      <text x={PAD.left - 4} y={y(0)} className="tick" textAnchor="end">
        0
      </text>
      {groups.map((g, i) => {
        const x = PAD.left + i * slot + (slot - barW) / 2;
        let base = 0;
        return (
          <g key={g.key}>
            {g.segments
              .filter((s) => s.value > 0)
              .map((s) => {
                const top = y(base + s.value);
                const height = y(base) - top;
                base += s.value;
                return (
                  <rect
                    key={s.key}
                    x={x}
                    y={top}
                    width={barW}
                    height={Math.max(1, height)}
                    fill={s.color}
                    className="bar"
                    data-testid="chart-bar"
                    data-value={s.value}
                    {...dataAttrs(s.data)}
                    onClick={s.onClick}
                  >
                    <title>{`${g.label}: ${s.label} ${s.value}`}</title>
                  </rect>
                );
              })}
            <text x={x + barW / 2} y={H - PAD.bottom + 14} className="tick" textAnchor="middle">
              {g.label}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

/** Horizontal bars, one per row, longest first as given. */
export function HorizontalBars({ rows, testId }: { rows: BarSegment[]; testId: string }) {
  const max = Math.max(1, ...rows.map((r) => r.value));
  const rowH = 22;
  const labelW = 180;
  const height = Math.max(rowH, rows.length * rowH);
  return (
    <svg className="chart" viewBox={`0 0 ${W} ${height}`} data-testid={testId} role="img">
      {rows.map((r, i) => (
        <g key={r.key} transform={`translate(0 ${i * rowH})`}>
          <text x={labelW - 6} y={rowH / 2 + 4} className="tick" textAnchor="end">
            {r.label}
          </text>
          <rect
            x={labelW}
            y={3}
            width={Math.max(2, ((W - labelW - 40) * r.value) / max)}
            height={rowH - 6}
            fill={r.color}
            className="bar"
            data-testid="chart-bar"
            data-value={r.value}
            {...dataAttrs(r.data)}
            onClick={r.onClick}
          >
            <title>{`${r.label}: ${r.value}`}</title>
          </rect>
          <text x={labelW + ((W - labelW - 40) * r.value) / max + 6} y={rowH / 2 + 4} className="tick">
            {r.value}
          </text>
        </g>
      ))}
    </svg>
  );
}

export function ChartCard({ title, children, note }: { title: string; children: ReactNode; note?: ReactNode }) {
  return (
    <section className="insights-card">
      <h3>{title}</h3>
      {children}
      {note && <p className="muted small">{note}</p>}
    </section>
  );
}

/** A color per reason code, stable across charts. */
const REASON_COLORS: Record<string, string> = {
  NO_VALIDATED_TARGET: '#7c3aed',
  UNVERIFIED_WRITE: '#c62828',
  WRITE_IN_FLIGHT: '#ea580c',
  FINAL_ANSWER_UNVERIFIED: '#b45309',
  LOOK_BEFORE_ASKING: '#2563eb',
  LOOP_DETECTED: '#0f766e',
};
export const colorOf = (reason: string) => REASON_COLORS[reason] ?? '#6b7385';
