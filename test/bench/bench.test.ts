import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BenchResults } from '../../bench/runBench.js';
import { makeFigure } from '../../bench/measure.js';
import { formatTable } from '../../bench/formatTable.js';

/*
 * A smoke run of `npm run bench` at tiny sizes: every suite runs end to end
 * (in a process of its own, with --expose-gc, as the script does) and every
 * figure is well formed. No timing is asserted: the figures are not
 * representative at these sizes.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// The app suite needs Chromium and a built app; the smoke run never rebuilds it (other tests may be reading dist/viz).
const withApp =
  existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium') && existsSync(join(ROOT, 'dist', 'viz', 'index.html'));
const SUITES = ['gate', 'atRest', 'replay', 'graph', ...(withApp ? ['app'] : [])];

let dir: string;
let results: BenchResults;
let printed: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assistant-safety-bench-test-'));
  const out = join(dir, 'results.json');
  printed = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', 'bench/run.ts', '--tiny', '--only', SUITES.join(','), '--out', out],
      { cwd: ROOT, timeout: 240_000, maxBuffer: 4 << 20, env: { ...process.env, BENCH_APP_BUILD: 'never' } },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stdout}\n${stderr}`)) : resolve(stdout),
    ),
  );
  results = JSON.parse(readFileSync(out, 'utf8')) as BenchResults;
}, 250_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run bench (tiny sizes)', () => {
  it('runs every suite without a failure', () => {
    expect(results.errors).toEqual([]);
    const suites = new Set(results.figures.map((f) => f.suite));
    expect([...suites]).toEqual(['gate', 'at rest', 'replay', 'graph', ...(withApp ? ['app'] : [])]);
  });

  it('describes the machine', () => {
    const m = results.machine;
    expect(m.cpu).not.toBe('');
    expect(m.cores).toBeGreaterThan(0);
    expect(m.memoryGB).toBeGreaterThan(0);
    expect(m.node).toBe(process.version);
    expect(Number.isNaN(Date.parse(m.date))).toBe(false);
  });

  it('gives every figure a finite positive median inside its spread', () => {
    for (const f of results.figures) {
      for (const x of [f.median, f.min, f.max]) {
        expect(Number.isFinite(x), `${f.suite} / ${f.name}`).toBe(true);
        expect(x, `${f.suite} / ${f.name}`).toBeGreaterThan(0);
      }
      expect(f.min).toBeLessThanOrEqual(f.median);
      expect(f.median).toBeLessThanOrEqual(f.max);
      expect(f.runs).toBeGreaterThanOrEqual(2);
      expect(f.unit).not.toBe('');
    }
  });

  it('computes every ratio from the baseline measured in the same run', () => {
    const speeds = results.figures.filter((f) => f.better === 'higher');
    expect(speeds.length).toBeGreaterThan(0);
    for (const f of results.figures) {
      if (f.better === 'higher') expect(f.baseline, `${f.name} is a speed: it needs a baseline`).toBeDefined();
      if (!f.baseline) continue;
      const b = f.baseline;
      expect(Number.isFinite(b.median) && b.median > 0, `${f.suite} / ${f.name}: baseline ${JSON.stringify(b)}`).toBe(
        true,
      );
      expect(b.min).toBeLessThanOrEqual(b.median);
      expect(b.median).toBeLessThanOrEqual(b.max);
      const expected = f.better === 'higher' ? b.median / f.median : f.median / b.median;
      expect(b.ratio).toBeCloseTo(expected, 9);
      expect(b.ratioText).toMatch(/^\d+(\.\d+)?× /);
    }
  });

  it('decides every target from the figure', () => {
    for (const f of results.figures.filter((f) => f.target)) {
      expect(typeof f.target!.met).toBe('boolean');
      expect(f.target!.text).not.toBe('');
    }
    const gate = results.figures.filter((f) => f.suite === 'gate' && f.target?.text === 'within 2× of the reducer');
    expect(gate.length).toBe(2);
    for (const f of gate) expect(f.target!.met).toBe(f.baseline!.ratio <= 2);
    const bound = results.figures.filter((f) => f.suite === 'gate' && f.name.endsWith('targets bound'));
    expect(bound.length).toBe(1);
    expect(bound[0]!.target!.met).toBe(bound[0]!.baseline!.ratio <= 1.5);
  });

  it('prints one table with a row per figure', () => {
    const table = printed.slice(printed.indexOf('suite '));
    expect(table).toContain('median');
    for (const f of results.figures) expect(table).toContain(f.name);
    expect(printed).toContain(results.machine.cpu);
  });
});

describe('figures', () => {
  it('rate the ratio as times worse than the baseline, whichever way is better', () => {
    const speed = makeFigure({
      suite: 's',
      name: 'speed',
      unit: 'ops/s',
      better: 'higher',
      runs: [100, 50, 200],
      baseline: { name: 'b', runs: [400, 1000, 800] },
    });
    expect(speed.median).toBe(100);
    expect(speed.baseline!.ratio).toBe(8);
    const size = makeFigure({
      suite: 's',
      name: 'size',
      unit: 'B',
      better: 'lower',
      runs: [300, 300],
      baseline: { name: 'b', runs: [100, 100] },
      target: { text: '< 1 KB', test: (s) => s.max < 1024 },
    });
    expect(size.baseline!.ratio).toBe(3);
    expect(size.target!.met).toBe(true);
    expect(formatTable([speed, size])).toMatch(/speed +100 +50\.0–200 \(3\) +ops\/s +800 +8\.00× slower/);
  });
});

describe('forEachLine', () => {
  it('gives every line once, in order, whatever the chunk size, multi-byte characters across chunks included', async () => {
    const { writeFileSync } = await import('node:fs');
    const { forEachLine } = await import('../../bench/forEachLine.js');
    const cases = ['', 'a', 'a\n', 'a\nb', '\n\n', 'héllo\nwörld\r\nlast', `${'x'.repeat(50)}\n${'é'.repeat(30)}\n`];
    const file = join(dir, 'lines.txt');
    for (const text of cases) {
      const expected = text === '' ? [] : text.split('\n').map((l) => l.replace(/\r$/, ''));
      if (text.endsWith('\n')) expected.pop();
      for (const chunkBytes of [1, 2, 3, 7, 1 << 20]) {
        writeFileSync(file, text);
        const lines: string[] = [];
        const terminated: boolean[] = [];
        const n = await forEachLine(file, (line, _n, t) => void (lines.push(line), terminated.push(t)), { chunkBytes });
        expect(lines, `${JSON.stringify(text)} in chunks of ${chunkBytes}`).toEqual(expected);
        expect(n).toBe(expected.length);
        expect(terminated.at(-1) ?? true).toBe(text === '' || text.endsWith('\n'));
      }
    }
  });
});
