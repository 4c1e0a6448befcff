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
  /** The same-run baseline, when the figure has one. */
  baseline?: { name: string; median: number; ratio: number; ratioText: string };
  note?: string;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function summary(xs: number[]) {
  return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs), runs: xs.length };
}

/** Operations per second of `fn`, which performs `ops` operations, repeated `runs` times after a warm-up. */
export function opsPerSecond(fn: () => void, ops: number, runs: number): number[] {
  fn();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    out.push((ops / (performance.now() - t)) * 1000);
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
    let t = performance.now();
    a();
    ra.push((ops / (performance.now() - t)) * 1000);
    t = performance.now();
    b();
    rb.push((ops / (performance.now() - t)) * 1000);
  }
  return [ra, rb];
}

export function gc() {
  (globalThis as { gc?: () => void }).gc?.();
}
