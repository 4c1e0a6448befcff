import { useEffect, useRef, useState } from 'react';
import type { GraphLayout } from '../layout/layoutGraph.js';
import type { GraphModel } from '../model/graphModel.js';
import { Diagram, type DiagramMoment } from './Diagram.js';

type Zoom = 'width' | 'all' | number;

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
  const [size, setSize] = useState({ width: 0, height: 0 });
  const [zoom, setZoom] = useState<Zoom>('width');
  useEffect(() => {
    const el = viewport.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const update = () => setSize({ width: el.clientWidth, height: el.clientHeight });
    update();
    const observer = new ResizeObserver(update);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const fitWidth = size.width > 0 ? Math.min(1, (size.width - 16) / layout.width) : 1;
  const fitAll = size.height > 0 ? Math.min(fitWidth, (size.height - 8) / (layout.height + 30)) : fitWidth;
  const scale = zoom === 'width' ? fitWidth : zoom === 'all' ? fitAll : zoom;

  useEffect(() => {
    const el = viewport.current;
    const node = moment.active ? layout.nodes[moment.active] : undefined;
    if (!el || !node) return;
    const top = node.y * scale;
    const bottom = (node.y + node.height) * scale;
    if (top < el.scrollTop || bottom > el.scrollTop + el.clientHeight) {
      const target = Math.max(0, (top + bottom) / 2 - el.clientHeight / 2);
      if (typeof el.scrollTo === 'function') el.scrollTo({ top: target });
      else el.scrollTop = target; // jsdom
    }
  }, [moment.active, layout, scale]);

  const numeric = typeof zoom === 'number' ? zoom : scale;
  return (
    <div className="diagram-viewport" ref={viewport}>
      <div className="zoom">
        <button type="button" className={zoom === 'width' ? 'selected' : ''} onClick={() => setZoom('width')}>
          fit width
        </button>
        <button type="button" className={zoom === 'all' ? 'selected' : ''} onClick={() => setZoom('all')}>
          fit all
        </button>
        <button type="button" onClick={() => setZoom(Math.max(0.25, numeric / 1.25))} aria-label="zoom out">
          −
        </button>
        <button type="button" onClick={() => setZoom(Math.min(3, numeric * 1.25))} aria-label="zoom in">
          +
        </button>
        <span className="muted">{Math.round(scale * 100)}%</span>
      </div>
      <Diagram model={model} layout={layout} moment={moment} scale={scale} />
    </div>
  );
}
