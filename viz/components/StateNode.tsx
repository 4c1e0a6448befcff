import { METRICS, type NodeLayout } from '../layout/layoutGraph.js';
import type { StateNodeModel } from '../model/graphModel.js';

/** Advance of the band's smaller, italic name (15 px). */
const ANY_TITLE_CHAR_WIDTH = 9.1;

/** A state's compact box as the layout placed it: its name and chips counting the transitions that stay in it. */
export function StateNode({
  node,
  layout,
  active,
  pulse,
}: {
  node: StateNodeModel;
  layout: NodeLayout;
  active: boolean;
  /** Changes on each step: restarts the active state's pulse. */
  pulse?: number;
}) {
  const m = METRICS;
  const any = node.kind === 'any';
  const classes = ['state', `state-${node.kind}`, active ? 'state-active' : ''].filter(Boolean).join(' ');
  const title = node.initial ? `▸ ${node.label}` : node.label;
  // The band draws its chips on its one line, after its name; a state under its name.
  const chipsX = any ? title.length * ANY_TITLE_CHAR_WIDTH + 8 : 0;
  const chipsY = any ? 5 : m.titleHeight;
  return (
    <g
      className={classes}
      transform={`translate(${layout.x},${layout.y})`}
      data-state={node.id}
      aria-label={tooltip(node)}
    >
      {active && pulse !== undefined && (
        <rect
          key={pulse}
          className="state-pulse"
          width={layout.width}
          height={layout.height}
          rx={any ? 4 : 10}
          aria-hidden="true"
        />
      )}
      <rect className="state-box" width={layout.width} height={layout.height} rx={any ? 4 : 10} />
      <text className="state-title" x={m.padding} y={any ? 20 : m.titleHeight - 6}>
        {title}
      </text>
      {layout.badges.map((b) => (
        <g key={b.kind} className={`badge badge-${b.kind}`} transform={`translate(${chipsX + b.x},${chipsY})`}>
          <rect width={b.width} height={m.badgeHeight - 2} rx={9} />
          <text x={b.width / 2} y={(m.badgeHeight - 2) / 2}>
            {b.text}
          </text>
        </g>
      ))}
    </g>
  );
}

/** A state in words (its accessible name): its description, then the transitions that stay in it. */
function tooltip(node: StateNodeModel): string {
  const rows = node.internal.map(
    (t) => `• ${t.event}${t.guard ? ` [${t.guard}]` : ''}${t.blocks ? ` / block ${t.blocks}` : ''}`,
  );
  return [node.description, ...(rows.length ? ['', 'Stays in this state on:', ...rows] : [])].join('\n');
}
