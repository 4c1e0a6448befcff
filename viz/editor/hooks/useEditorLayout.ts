import { useMemo } from 'react';
import type { NodePosition } from 'assistant-safety/editor';
import { useLayout } from '../../hooks/useLayout.js';
import type { GraphLayout } from '../../layout/layoutGraph.js';
import type { GraphModel } from '../../model/graphModel.js';
import { positionedLayout } from '../model/positionedLayout.js';

/** ELK's layout of the graph with the saved positions on top (see positionedLayout). */
export function useEditorLayout(
  model: GraphModel | undefined,
  positions: Readonly<Record<string, NodePosition>>,
  /** The pane the diagram is drawn in: the layout's direction suits its shape. */
  box?: { width: number; height: number },
): { auto?: GraphLayout; layout?: GraphLayout; error?: string } {
  const { layout: auto, error } = useLayout(model, box);
  const layout = useMemo(
    () => (model && auto ? positionedLayout(model, auto, positions) : undefined),
    [model, auto, positions],
  );
  return { ...(auto && { auto }), ...(layout && { layout }), ...(error && { error }) };
}
