import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type PointerEvent as ReactPointerEvent,
  type ReactNode,
} from 'react';
import { fitScales, useViewportBox, type Fit } from '../hooks/useDiagramFit.js';
import type { Box, GraphLayout } from '../layout/layoutGraph.js';
import type { GraphModel } from '../model/graphModel.js';
import { Diagram, diagramSize, type DiagramMoment } from './Diagram.js';
import { hoverDetails, hoverTargetOf, type HoverTarget } from './HoverCard.js';

type Zoom = Fit | number;

const MIN_ZOOM = 0.25;
const MAX_ZOOM = 3;

/** The viewer's diagram: the statechart at one moment in a {@link ZoomableViewport} that keeps the active state in view. */
export function DiagramViewport({
  model,
  layout,
  moment,
}: {
  model: GraphModel;
  layout: GraphLayout;
  moment: DiagramMoment;
}) {
  return (
    <ZoomableViewport model={model} layout={layout} focus={moment.active ? layout.nodes[moment.active] : undefined}>
      {(scale) => <Diagram model={model} layout={layout} moment={moment} scale={scale} />}
    </ZoomableViewport>
  );
}

/**
 * The one diagram viewport of every mode: a zoom bar (fit all, fit width, −,
 * +, the zoom), the drawing centred and fitted whole by default (enlarged up
 * to 150 % in a big pane), scrolling when zoomed in, with a minimap then;
 * `focus` (the active state) is scrolled into view as it changes. `hold`
 * keeps the zoom still (while a state is dragged).
 */
export function ZoomableViewport({
  model,
  layout,
  focus,
  hold = false,
  className = '',
  legend = true,
  children,
}: {
  /** For the details shown on hover. */
  model?: GraphModel;
  layout: GraphLayout;
  focus?: Box | undefined;
  hold?: boolean;
  className?: string;
  legend?: boolean;
  children: (scale: number) => ReactNode;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const [zoom, setZoom] = useState<Zoom>('all');
  const box = useViewportBox(scroller);
  const size = diagramSize(layout);
  const fit = fitScales(box, size);
  const held = useRef(1);
  if (!hold) held.current = typeof zoom === 'number' ? zoom : fit[zoom];
  const scale = held.current;
  const [scroll, setScroll] = useState({ left: 0, top: 0 });

  useEffect(() => {
    const el = scroller.current;
    if (el && focus) scrollIntoView(el, focus, scale);
  }, [focus?.x, focus?.y, scale]);

  const [hover, setHover] = useState<{ target: HoverTarget; x: number; y: number } | undefined>(undefined);
  const frame = useRef<HTMLDivElement>(null);
  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (!model || hold || e.buttons !== 0) return setHover(undefined);
    const target = hoverTargetOf(e.target as Element);
    const r = frame.current?.getBoundingClientRect();
    if (!target || !r) return setHover(undefined);
    setHover({ target, x: e.clientX - r.left, y: e.clientY - r.top });
  };
  // The card goes under the pointer, moved up as far as it must to stay inside the pane.
  const card = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = card.current;
    const height = frame.current?.clientHeight ?? 0;
    if (!el || !hover) return;
    el.style.top = `${Math.max(2, Math.min(hover.y + 16, height - el.offsetHeight - 2))}px`;
  }, [hover]);
  const overflows = size.width * scale > box.width + 1 || size.height * scale > box.height + 1;
  return (
    <div className={`diagram-viewport ${className}`.trim()} ref={frame}>
      <ZoomBar zoom={zoom} scale={scale} onZoom={setZoom}>
        {legend && <DiagramLegend />}
      </ZoomBar>
      <div
        className="diagram-scroll"
        ref={scroller}
        data-testid="diagram-scroll"
        onScroll={(e) => setScroll({ left: e.currentTarget.scrollLeft, top: e.currentTarget.scrollTop })}
        onPointerMove={onPointerMove}
        onPointerLeave={() => setHover(undefined)}
      >
        {children(scale)}
      </div>
      {hover && model && (
        <div
          className="hover-card"
          data-testid="hover-card"
          role="tooltip"
          ref={card}
          style={{ left: Math.max(4, Math.min(hover.x + 14, box.width - 304)), top: hover.y + 16 }}
        >
          {hoverDetails(model, hover.target)}
        </div>
      )}
      {overflows && box.width > 0 && (
        <Minimap
          layout={layout}
          view={{
            x: scroll.left / scale,
            y: scroll.top / scale,
            width: box.width / scale,
            height: box.height / scale,
          }}
          onPan={(p) => {
            const el = scroller.current;
            if (!el) return;
            const left = Math.max(0, p.x * scale - box.width / 2);
            const top = Math.max(0, p.y * scale - box.height / 2);
            if (typeof el.scrollTo === 'function') el.scrollTo({ left, top });
            else [el.scrollLeft, el.scrollTop] = [left, top];
          }}
        />
      )}
    </div>
  );
}

/** What the marks of the diagram mean, in one line. */
function DiagramLegend() {
  return (
    <span className="diagram-legend muted" data-testid="diagram-legend">
      <span className="badge-sample badge-blocks">⊘ blocks</span> <span className="badge-sample badge-stays">↺</span>{' '}
      stay in the state · dashed: from any state · hover for details
    </span>
  );
}

const FIT_LABELS: Record<Fit, string> = { all: 'fit all', width: 'fit width' };

/** The zoom bar every diagram has: fit all, fit width, −, the zoom, +; and anything else (a legend) before it. */
function ZoomBar({
  zoom,
  scale,
  onZoom,
  children,
}: {
  zoom: Zoom;
  scale: number;
  onZoom(zoom: Zoom): void;
  children?: ReactNode;
}) {
  return (
    <div className="zoom" data-testid="zoom-bar">
      {children}
      <span className="zoom-buttons">
        {(['all', 'width'] as const).map((f) => (
          <button key={f} type="button" className={zoom === f ? 'selected' : ''} onClick={() => onZoom(f)}>
            {FIT_LABELS[f]}
          </button>
        ))}
        <button
          type="button"
          onClick={() => onZoom(Math.max(MIN_ZOOM, scale / 1.25))}
          aria-label="zoom out"
          title="zoom out"
        >
          −
        </button>
        <span className="zoom-level" data-testid="zoom-level">
          {Math.round(scale * 100)}%
        </span>
        <button
          type="button"
          onClick={() => onZoom(Math.min(MAX_ZOOM, scale * 1.25))}
          aria-label="zoom in"
          title="zoom in"
        >
          +
        </button>
      </span>
    </div>
  );
}

const MINIMAP_WIDTH = 160;

/** The whole machine in small, with the part in view outlined; click or drag on it to look elsewhere. */
function Minimap({
  layout,
  view,
  onPan,
}: {
  layout: GraphLayout;
  view: Box;
  onPan(point: { x: number; y: number }): void;
}) {
  const size = diagramSize(layout);
  const k = MINIMAP_WIDTH / size.width;
  const pan = (e: ReactPointerEvent<SVGSVGElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    onPan({ x: (e.clientX - r.left) / k, y: (e.clientY - r.top) / k });
  };
  return (
    <svg
      className="minimap"
      data-testid="minimap"
      width={MINIMAP_WIDTH}
      height={Math.round(size.height * k)}
      viewBox={`0 0 ${size.width} ${size.height}`}
      role="img"
      aria-label="minimap"
      onPointerDown={(e) => {
        e.currentTarget.setPointerCapture?.(e.pointerId);
        pan(e);
      }}
      onPointerMove={(e) => e.buttons === 1 && pan(e)}
    >
      {Object.values(layout.nodes).map((n) => (
        <rect key={n.id} className="minimap-node" x={n.x} y={n.y} width={n.width} height={n.height} rx={8} />
      ))}
      <rect className="minimap-view" x={view.x} y={view.y} width={view.width} height={view.height} />
    </svg>
  );
}

/** Scrolls the viewport `el` so a node of a diagram drawn at `scale` is in view, centred, when it is not already. */
function scrollIntoView(el: HTMLElement, node: Box, scale: number): void {
  const top = node.y * scale;
  const bottom = (node.y + node.height) * scale;
  const left = node.x * scale;
  const right = (node.x + node.width) * scale;
  const outY = top < el.scrollTop || bottom > el.scrollTop + el.clientHeight;
  const outX = left < el.scrollLeft || right > el.scrollLeft + el.clientWidth;
  if (!outX && !outY) return;
  const to = {
    top: outY ? Math.max(0, (top + bottom) / 2 - el.clientHeight / 2) : el.scrollTop,
    left: outX ? Math.max(0, (left + right) / 2 - el.clientWidth / 2) : el.scrollLeft,
  };
  if (typeof el.scrollTo === 'function') el.scrollTo(to);
  else [el.scrollTop, el.scrollLeft] = [to.top, to.left]; // jsdom
}
