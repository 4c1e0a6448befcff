/** One benchmark figure: a median over repeated runs, its spread, and how it compares. */
export interface Figure {
  suite: string;
  name: string;
  unit: string;
  median: number;
  /** Smallest and largest of the runs. */
  min: number;
  max: number;
  runs: number;
  /** Higher is better (throughput) or lower is better (time, bytes). */
  better: 'higher' | 'lower';
  target?: { text: string; met: boolean };
  /**
   * The same-run baseline, when the figure has one. `ratio` is how many times
   * worse the figure is than the baseline (1 = as good, 8 = eight times slower
   * or bigger), computed from the two medians.
   */
  baseline?: { name: string; median: number; min: number; max: number; ratio: number; ratioText: string };
  note?: string;
}

/** The median of `xs` (the mean of the middle two for an even count). */
/**
 * Milliseconds one call of `fn` takes: a call under the clock's useful
 * resolution is repeated until 1 ms has passed, so a tiny run never measures
 * 0 (which would make a speed infinite and a ratio meaningless).
 */
export function timeOnce(fn: () => void): number {
  let reps = 0;
  const t = performance.now();
  let elapsed = 0;
  do {
    fn();
    reps++;
    elapsed = performance.now() - t;
  } while (elapsed < 1);
  return elapsed / reps;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Median, smallest, largest and count of a list of runs. */
function summary(xs: number[]) {
  if (xs.length === 0) throw new Error('summary: no runs');
  return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs), runs: xs.length };
}

/** Operations per second of `fn`, which performs `ops` operations, repeated `runs` times after a warm-up. */
function opsPerSecond(fn: () => void, ops: number, runs: number): number[] {
  fn();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    out.push((ops / timeOnce(fn)) * 1000);
  }
  return out;
}

/** Like {@link opsPerSecond} for two functions, interleaved run by run so noise hits both alike. */
export function opsPerSecondPaired(a: () => void, b: () => void, ops: number, runs: number): [number[], number[]] {
  a();
  b();
  const ra: number[] = [];
  const rb: number[] = [];
  for (let i = 0; i < runs; i++) {
    ra.push((ops / timeOnce(a)) * 1000);
    rb.push((ops / timeOnce(b)) * 1000);
  }
  return [ra, rb];
}

/** `8.3× slower`, `0.42× a frame`: a ratio with enough digits to read, and what it means. */
export function ratioText(ratio: number, meaning: string): string {
  const digits = ratio >= 100 ? 0 : ratio >= 10 ? 1 : 2;
  return `${ratio.toFixed(digits)}× ${meaning}`;
}

/** Runs a full garbage collection when node runs with `--expose-gc` (a no-op otherwise). */
export function gc() {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Whether {@link gc} really collects (node started with `--expose-gc`). */
export function canGc(): boolean {
  return typeof (globalThis as { gc?: unknown }).gc === 'function';
}

export interface FigureSpec {
  suite: string;
  name: string;
  unit: string;
  better: 'higher' | 'lower';
  /** The runs of the thing measured. */
  runs: number[];
  /** The runs of the same-run baseline, and what it is. */
  baseline?: { name: string; runs: number[]; describe?: (ratio: number) => string };
  /** The target, as text and as a test of the runs' summary (median, min, max) and the ratio. */
  target?: {
    text: string;
    test: (s: { median: number; min: number; max: number }, ratio: number | undefined) => boolean;
  };
  note?: string;
}

/**
 * Builds a {@link Figure} from raw runs: median and spread, the ratio of the
 * two medians (always "times worse than the baseline": baseline/figure for a
 * higher-is-better figure, figure/baseline for a lower-is-better one), and
 * whether the target is met.
 */
export function makeFigure(spec: FigureSpec): Figure {
  const s = summary(spec.runs);
  const figure: Figure = { suite: spec.suite, name: spec.name, unit: spec.unit, ...s, better: spec.better };
  let ratio: number | undefined;
  if (spec.baseline) {
    const b = summary(spec.baseline.runs);
    ratio = spec.better === 'higher' ? b.median / s.median : s.median / b.median;
    const text = spec.baseline.describe?.(ratio) ?? ratioText(ratio, spec.better === 'higher' ? 'slower' : 'more');
    figure.baseline = { name: spec.baseline.name, median: b.median, min: b.min, max: b.max, ratio, ratioText: text };
  }
  if (spec.target) figure.target = { text: spec.target.text, met: spec.target.test(s, ratio) };
  if (spec.note) figure.note = spec.note;
  return figure;
}
