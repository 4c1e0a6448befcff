import { useEffect, useState, type RefObject } from 'react';

/** A zoom that follows the viewport: the whole diagram, or its width. */
export type Fit = 'all' | 'width';

/** A fitted diagram is enlarged up to this much in a big viewport, no more. */
const MAX_FIT = 1.5;

/**
 * The scales that fit a diagram of `size` into a viewport of `box`: `all`
 * the whole diagram, `width` its width (it may then scroll down). Enlarged
 * up to {@link MAX_FIT}. Pure: the viewport's hook below measures the box.
 */
export function fitScales(
  box: { width: number; height: number },
  size: { width: number; height: number },
  margin = 8,
): Record<Fit, number> {
  if (box.width <= 0 || size.width <= 0) return { all: 1, width: 1 };
  const width = Math.min(MAX_FIT, (box.width - 2 * margin) / size.width);
  const all = box.height > 0 ? Math.min(width, (box.height - 2 * margin) / size.height) : width;
  return { all: Math.max(0.05, all), width: Math.max(0.05, width) };
}

/**
 * The inner size of a scrolling viewport, kept up to date as it resizes;
 * 0×0 until it is laid out (and in jsdom).
 */
export function useViewportBox(viewport: RefObject<HTMLElement | null>): { width: number; height: number } {
  const [box, setBox] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const el = viewport.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const update = () => setBox({ width: el.clientWidth, height: el.clientHeight });
    update();
    const observer = new ResizeObserver(update);
    observer.observe(el);
    return () => observer.disconnect();
  }, [viewport]);
  return box;
}

/** Height of the zoom bar above a diagram's scrolling area. */
const ZOOM_BAR_HEIGHT = 26;

/**
 * The box a diagram's scrolling area will have inside a pane (the pane less
 * its zoom bar), for choosing a layout before the diagram is drawn. Returns a
 * ref callback for the pane, which may mount and unmount with the mode.
 */
export function useDiagramPaneBox(): [(el: HTMLElement | null) => void, { width: number; height: number }] {
  const [el, setEl] = useState<HTMLElement | null>(null);
  const [box, setBox] = useState({ width: 0, height: 0 });
  useEffect(() => {
    if (!el || typeof ResizeObserver === 'undefined') return;
    const update = () => setBox({ width: el.clientWidth, height: Math.max(0, el.clientHeight - ZOOM_BAR_HEIGHT) });
    update();
    const observer = new ResizeObserver(update);
    observer.observe(el);
    return () => observer.disconnect();
  }, [el]);
  return [setEl, box];
}
