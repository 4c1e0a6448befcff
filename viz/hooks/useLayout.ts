import { useEffect, useState } from 'react';
import { layoutGraph, type GraphLayout } from '../layout/layoutGraph.js';
import type { GraphModel } from '../model/graphModel.js';

/** Lays out a graph model (ELK is asynchronous); undefined until ready, and an error message if ELK fails. */
export function useLayout(model: GraphModel | undefined): { layout?: GraphLayout; error?: string } {
  const [result, setResult] = useState<{ model?: GraphModel; layout?: GraphLayout; error?: string }>({});
  useEffect(() => {
    if (!model) return;
    let live = true;
    layoutGraph(model).then(
      (layout) => live && setResult({ model, layout }),
      (e: unknown) => live && setResult({ model, error: `layout failed: ${(e as Error).message}` }),
    );
    return () => {
      live = false;
    };
  }, [model]);
  return result.model === model ? result : {};
}
