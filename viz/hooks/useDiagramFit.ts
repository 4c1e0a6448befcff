import { useEffect, useState, type RefObject } from 'react';

/** A zoom that follows the viewport: the diagram's width, or all of it. */
export type Fit = 'width' | 'all';

/**
 * The scales that fit a diagram drawn at `size` into its scrolling viewport,
 * kept up to date as the viewport resizes: `width` fits its width, `all` the
 * whole diagram with `reserve` px of the viewport's height left free. Never
 * enlarged; 1 until the viewport is laid out (and in jsdom).
 */
export function useDiagramFit(
  viewport: RefObject<HTMLElement | null>,
  size: { width: number; height: number },
  reserve: number,
): Record<Fit, number> {
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
  const width = box.width > 0 ? Math.min(1, (box.width - 16) / size.width) : 1;
  const all = box.height > 0 ? Math.min(width, (box.height - reserve) / size.height) : width;
  return { width, all };
}
