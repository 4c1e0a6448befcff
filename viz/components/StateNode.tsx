import { METRICS, type NodeLayout } from '../layout/layoutGraph.js';
import type { StateNodeModel } from '../model/graphModel.js';

/** How one internal row is marked at the current step. */
export interface RowMark {
  transition: string;
  kind: 'taken' | 'blocked';
}

/** One state: name, description, and its targetless transitions as rows; the active state is highlighted. */
export function StateNode({
  node,
  layout,
  active,
  row,
}: {
  node: StateNodeModel;
  layout: NodeLayout;
  active: boolean;
  row: RowMark | undefined;
}) {
  const m = METRICS;
  const classes = ['state', `state-${node.kind}`, active ? 'state-active' : ''].filter(Boolean).join(' ');
  return (
    <g className={classes} transform={`translate(${layout.x},${layout.y})`} data-state={node.id}>
      <title>{node.description}</title>
      <rect className="state-box" width={layout.width} height={layout.height} rx={node.kind === 'any' ? 4 : 10} />
      <text className="state-title" x={m.padding} y={m.titleHeight - 8}>
        {node.initial ? `▸ ${node.label}` : node.label}
      </text>
      {active && (
        <text className="state-active-tag" x={layout.width - m.padding} y={m.titleHeight - 8}>
          active
        </text>
      )}
      {layout.descriptionLines.map((line, i) => (
        <text key={i} className="state-description" x={m.padding} y={m.titleHeight + m.lineHeight * (i + 1) - 4}>
          {line}
        </text>
      ))}
      {node.internal.length > 0 && (
        <line className="state-separator" x1={0} x2={layout.width} y1={layout.rowsTop - 4} y2={layout.rowsTop - 4} />
      )}
      {node.internal.map((t, i) => {
        const r = layout.rows[i];
        if (!r) return null;
        const mark = row?.transition === t.id ? row.kind : undefined;
        return (
          <g
            key={t.id}
            className={`row${mark ? ` row-${mark}` : ''}${t.blocks ? ' row-blocks' : ''}`}
            data-transition={t.id}
          >
            <title>{`${t.description}${t.actions.length ? `\nactions: ${t.actions.join(', ')}` : ''}`}</title>
            {mark && <rect className="row-highlight" x={2} y={r.y} width={layout.width - 4} height={r.height} rx={3} />}
            {r.lines.map((line, j) => (
              <text
                key={j}
                className={j === 0 ? 'row-label' : 'row-effect'}
                x={m.padding}
                y={r.y + (j + 1) * m.lineHeight - 2}
              >
                {line}
              </text>
            ))}
          </g>
        );
      })}
    </g>
  );
}
