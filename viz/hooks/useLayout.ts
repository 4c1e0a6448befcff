import { useEffect, useState } from 'react';
import { diagramSize } from '../components/Diagram.js';
import { chainLayout } from '../layout/chainLayout.js';
import { layoutGraph, type Direction, type GraphLayout } from '../layout/layoutGraph.js';
import type { GraphModel } from '../model/graphModel.js';
import { fitScales } from './useDiagramFit.js';

const DIRECTIONS: readonly Direction[] = ['RIGHT', 'DOWN'];
/** Row counts tried for a chain-shaped machine (see chainLayout). */
const CHAIN_ROWS = [2, 3, 4, 5] as const;

/** Every layout of a graph to choose from: left to right, top down, and snaked rows if it is chain-shaped. */
async function allLayouts(model: GraphModel): Promise<Record<string, GraphLayout>> {
  const [RIGHT, DOWN] = await Promise.all(DIRECTIONS.map((direction) => layoutGraph(model, { direction })));
  const layouts: Record<string, GraphLayout> = { RIGHT: RIGHT!, DOWN: DOWN! };
  for (const rows of CHAIN_ROWS) {
    const rowed = chainLayout(model, rows);
    if (rowed) layouts[`rows${rows}`] = rowed;
  }
  return layouts;
}

/**
 * Of the layouts of one graph, the one drawn largest when fitted whole into
 * a pane of `box` (left to right in a wide pane, top down in a tall or
 * square one, snaked rows for a long chain); the first when the pane is not measured yet.
 *
 * @example
 * pickLayout({ RIGHT: wide, DOWN: tall }, { width: 700, height: 615 }); // tall
 */
export function pickLayout(
  layouts: Readonly<Record<Direction, GraphLayout>> & Readonly<Record<string, GraphLayout>>,
  box: { width: number; height: number },
): GraphLayout {
  let best = layouts.RIGHT;
  if (box.width <= 0 || box.height <= 0) return best;
  let bestScale = fitScales(box, diagramSize(best)).all;
  for (const layout of Object.values(layouts)) {
    const scale = fitScales(box, diagramSize(layout)).all;
    if (scale > bestScale + 0.01) [best, bestScale] = [layout, scale];
  }
  return best;
}

/**
 * Lays out a graph model (ELK is asynchronous) both ways, and gives the
 * layout that suits a pane of `box` best (see {@link pickLayout}); undefined
 * until ready, and an error message if ELK fails. A resize picks again
 * without laying out again.
 */
export function useLayout(
  model: GraphModel | undefined,
  box: { width: number; height: number } = { width: 0, height: 0 },
): { layout?: GraphLayout; error?: string } {
  const [result, setResult] = useState<{
    model?: GraphModel;
    layouts?: Record<Direction, GraphLayout> & Record<string, GraphLayout>;
    error?: string;
  }>({});
  useEffect(() => {
    if (!model) return;
    let live = true;
    allLayouts(model).then(
      (layouts) => live && setResult({ model, layouts: layouts as Record<Direction, GraphLayout> }),
      (e: unknown) => live && setResult({ model, error: `layout failed: ${(e as Error).message}` }),
    );
    return () => {
      live = false;
    };
  }, [model]);
  if (result.model !== model) return {};
  if (result.error !== undefined) return { error: result.error };
  return result.layouts ? { layout: pickLayout(result.layouts, box) } : {};
}
