import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useDiagramFit, type Fit } from '../hooks/useDiagramFit.js';
import type { Box, GraphLayout } from '../layout/layoutGraph.js';
import type { GraphModel } from '../model/graphModel.js';
import { Diagram, diagramSize, type DiagramMoment } from './Diagram.js';

type Zoom = Fit | number;

/**
 * The diagram in a scrolling viewport: fitted to the width by default (never
 * enlarged), the whole machine at once, or a fixed zoom; the active state is
 * scrolled into view as it changes.
 */
export function DiagramViewport({
  model,
  layout,
  moment,
}: {
  model: GraphModel;
  layout: GraphLayout;
  moment: DiagramMoment;
}) {
  const viewport = useRef<HTMLDivElement>(null);
  const [zoom, setZoom] = useState<Zoom>('width');
  const fit = useDiagramFit(viewport, diagramSize(layout), 8);
  const scale = typeof zoom === 'number' ? zoom : fit[zoom];

  useEffect(() => {
    const el = viewport.current;
    const node = moment.active ? layout.nodes[moment.active] : undefined;
    if (el && node) scrollIntoView(el, node, scale);
  }, [moment.active, layout, scale]);

  return (
    <div className="diagram-viewport" ref={viewport}>
      <ZoomBar fits={['width', 'all']} zoom={zoom} scale={scale} onFit={setZoom}>
        <button type="button" onClick={() => setZoom(Math.max(0.25, scale / 1.25))} aria-label="zoom out">
          −
        </button>
        <button type="button" onClick={() => setZoom(Math.min(3, scale * 1.25))} aria-label="zoom in">
          +
        </button>
      </ZoomBar>
      <Diagram model={model} layout={layout} moment={moment} scale={scale} />
    </div>
  );
}

const FIT_LABELS: Record<Fit, string> = { width: 'fit width', all: 'fit all' };

/** A diagram viewport's zoom bar: its fit buttons in this order, any other controls, and the zoom shown. */
export function ZoomBar({
  fits,
  zoom,
  scale,
  onFit,
  children,
}: {
  fits: readonly Fit[];
  zoom: Fit | number;
  scale: number;
  onFit(fit: Fit): void;
  children?: ReactNode;
}) {
  return (
    <div className="zoom">
      {fits.map((f) => (
        <button key={f} type="button" className={zoom === f ? 'selected' : ''} onClick={() => onFit(f)}>
          {FIT_LABELS[f]}
        </button>
      ))}
      {children}
      <span className="muted">{Math.round(scale * 100)}%</span>
    </div>
  );
}

/** Scrolls the viewport `el` so a node of a diagram drawn at `scale` is in view, centred, when it is not already. */
export function scrollIntoView(el: HTMLElement, node: Box, scale: number): void {
  const top = node.y * scale;
  const bottom = (node.y + node.height) * scale;
  if (top < el.scrollTop || bottom > el.scrollTop + el.clientHeight) {
    const target = Math.max(0, (top + bottom) / 2 - el.clientHeight / 2);
    if (typeof el.scrollTo === 'function') el.scrollTo({ top: target });
    else el.scrollTop = target; // jsdom
  }
}
