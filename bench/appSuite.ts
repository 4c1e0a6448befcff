import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { launchChromium } from '../scripts/chromium.js';
import { startServer } from '../src/server/startServer.js';
import { generateRecording } from './generateRecording.js';
import { makeFigure, median, ratioText, type Figure } from './measure.js';

export interface AppSizes {
  /** Entries in the recording the app opens. */
  events: number;
  /** Fresh page loads, each opening the recording once. */
  runs: number;
  /** Steps measured in each page load. */
  steps?: number;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const APP_DIR = join(ROOT, 'dist', 'viz');

/** Newest modification time of the files under `dir`, ms. */
function newest(dir: string): number {
  let t = 0;
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const s = statSync(join(dir, name));
    if (s.isFile()) t = Math.max(t, s.mtimeMs);
  }
  return t;
}

/**
 * Builds the app (`npm run build:viz`) when it is missing or older than its
 * sources. With `BENCH_APP_BUILD=never` (the smoke test: other tests may be
 * reading dist/viz) it uses whatever is built and only fails when nothing is.
 */
function ensureAppBuilt(): void {
  const index = join(APP_DIR, 'index.html');
  if (process.env.BENCH_APP_BUILD === 'never') {
    if (existsSync(index)) return;
    throw new Error('the app is not built (dist/viz/index.html) and BENCH_APP_BUILD=never');
  }
  if (existsSync(index) && statSync(index).mtimeMs >= newest(join(ROOT, 'viz'))) return;
  process.stderr.write(' (building the app: npm run build:viz)');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['run', 'build:viz'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], timeout: 300_000 });
  if (r.status !== 0) throw new Error(`npm run build:viz failed: ${r.stderr?.toString() ?? r.error?.message}`);
}

/** What one page load measured, with the page's own clock (performance.now). */
interface PageRun {
  openMs: number;
  analysisMs: number;
  baselineParseMs: number;
  fetchMs: number;
  stepMs: number[];
  framesMs: number[];
}

/**
 * In the page: click the recording in the server's list and wait until its
 * status line and the first timeline row are in the DOM and a frame has been
 * painted with them (a requestAnimationFrame, then a task after it).
 */
async function openRecording(page: Page, name: string): Promise<number> {
  return page.evaluate(async (name) => {
    const button = document.querySelector<HTMLButtonElement>(`button[data-recording="${CSS.escape(name)}"]`);
    if (!button) throw new Error(`no button for ${name} in the recording list`);
    const opened = () =>
      document.querySelector('[data-testid="recording-status"]')?.textContent?.includes(name) &&
      document.querySelector('[data-testid="timeline-row"]') !== null;
    const t0 = performance.now();
    button.click();
    await new Promise<void>((resolve, reject) => {
      const give = setTimeout(() => reject(new Error(`${name} did not open in 60 s`)), 60_000);
      const check = () => {
        if (document.querySelector('[data-testid="recording-error"]')) {
          clearTimeout(give);
          return reject(new Error(document.querySelector('[data-testid="recording-error"]')!.textContent ?? 'error'));
        }
        if (!opened()) return void requestAnimationFrame(check);
        // Painted: the frame after this one's callbacks has been produced when the next task runs.
        requestAnimationFrame(() =>
          setTimeout(() => {
            clearTimeout(give);
            resolve();
          }, 0),
        );
      };
      check();
    });
    return performance.now() - t0;
  }, name);
}

/** In the page: wait until the background replay of the track against the machine has finished. */
async function waitForAnalysis(page: Page): Promise<void> {
  await page.waitForFunction(
    () => /^replayed against/.test(document.querySelector('[data-testid="analysis-status"]')?.textContent ?? ''),
    undefined,
    { timeout: 120_000, polling: 50 },
  );
}

/**
 * In the page: click "step forward" and time until React has committed the
 * new step to the DOM (the active state or the current timeline row changed),
 * observed by a MutationObserver.
 */
async function step(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const button = document.querySelector<HTMLButtonElement>('[data-testid="step-forward"]');
    if (!button || button.disabled) throw new Error('step forward is not available');
    const root = document.querySelector('.app') ?? document.body;
    let t0 = 0;
    const done = new Promise<number>((resolve, reject) => {
      const give = setTimeout(() => reject(new Error('the step changed nothing in 10 s')), 10_000);
      const observer = new MutationObserver(() => {
        observer.disconnect();
        clearTimeout(give);
        resolve(performance.now() - t0);
      });
      observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    t0 = performance.now();
    button.click();
    return done;
  });
}

/** In the page: the interval between animation frames (the budget a step has to fit in). */
async function frameIntervals(page: Page, count: number): Promise<number[]> {
  return page.evaluate(
    (count) =>
      new Promise<number[]>((resolve) => {
        const out: number[] = [];
        let last = -1;
        const tick = (t: number) => {
          if (last >= 0) out.push(t - last);
          last = t;
          if (out.length < count) requestAnimationFrame(tick);
          else resolve(out);
        };
        requestAnimationFrame(tick);
      }),
    count,
  );
}

/**
 * In the page: the baseline for opening, bare JSON.parse of every line of the
 * same text; the download of the text is timed apart (part of opening, not of the baseline).
 */
async function bareParse(page: Page, name: string): Promise<{ fetchMs: number; parseMs: number }> {
  return page.evaluate(async (name) => {
    const f0 = performance.now();
    const text = await (await fetch(`/api/recordings/${encodeURIComponent(name)}`)).text();
    const fetchMs = performance.now() - f0;
    // The page's clock is coarsened (about 0.1 ms): a tiny text is parsed again until 1 ms has passed.
    const lines = text.split('\n');
    let n = 0;
    let reps = 0;
    const t0 = performance.now();
    let ms = 0;
    do {
      for (const line of lines) if (line) n += JSON.parse(line) ? 1 : 0;
      reps++;
      ms = performance.now() - t0;
    } while (ms < 1);
    if (n === 0) throw new Error('no lines');
    return { fetchMs, parseMs: ms / reps };
  }, name);
}

/**
 * Part 5: the built app in headless Chromium, served by the real server on
 * 127.0.0.1: time to open an `events`-entry recording from the server's list
 * and to step once, each with the page's own clock; baselines in the same
 * page are a bare JSON.parse of the same lines and the frame interval.
 */
export async function appFigures({ events = 100_000, runs = 3, steps = 10 }: Partial<AppSizes> = {}): Promise<
  Figure[]
> {
  ensureAppBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'assistant-safety-bench-app-'));
  const recordingsDir = join(dir, 'recordings');
  mkdirSync(recordingsDir);
  const name = `bench-${events}.jsonl`;
  const rec = generateRecording(join(recordingsDir, name), { events });
  const server = await startServer({ recordingsDir, machinesDir: join(ROOT, 'machines'), appDir: APP_DIR });
  const browser = await launchChromium();
  const pageRuns: PageRun[] = [];
  try {
    for (let r = 0; r < runs; r++) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      // tsx (esbuild with keepNames) wraps functions in __name(); the functions sent to the page need it too.
      await context.addInitScript('globalThis.__name = (f) => f;');
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      // The recordings mode, where a user opens a file from the server's list.
      await page.goto(`${server.url}&mode=recordings`, { timeout: 60_000 });
      await page.waitForSelector(`button[data-recording="${name}"]`, { timeout: 60_000 });
      // The machine's diagram is laid out before anything is opened, as a user would see it.
      await page.waitForSelector('svg.diagram [data-state]', { timeout: 60_000 });
      const { fetchMs, parseMs: baselineParseMs } = await bareParse(page, name);
      const openMs = await openRecording(page, name);
      const t = await page.evaluate(() => performance.now());
      await waitForAnalysis(page);
      const analysisMs = (await page.evaluate(() => performance.now())) - t + openMs;
      const stepMs: number[] = [];
      for (let i = 0; i < steps; i++) stepMs.push(await step(page));
      const framesMs = await frameIntervals(page, 30);
      if (errors.length) throw new Error(`the page threw: ${errors.join('; ')}`);
      pageRuns.push({ openMs, analysisMs, baselineParseMs, fetchMs, stepMs, framesMs });
      await context.close();
    }
  } finally {
    await browser.close().catch(() => undefined);
    await server.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
  const what = `${events.toLocaleString('en-US')} events (${(rec.bytes / 1024 / 1024).toFixed(0)} MB), ${runs} fresh page loads, headless Chromium, page clock`;
  const parse = pageRuns.map((r) => r.baselineParseMs);
  return [
    makeFigure({
      suite: 'app',
      name: 'open a recording',
      unit: 'ms',
      better: 'lower',
      runs: pageRuns.map((r) => r.openMs),
      baseline: {
        name: 'bare JSON.parse of the same lines, in the page',
        runs: parse,
        describe: (x) => ratioText(x, 'longer'),
      },
      target: { text: '< 2,000 ms', test: (s) => s.median < 2000 },
      note: `click in the list until the status and timeline are painted, every entry validated (the app parses the text as it downloads; downloading it alone: ${median(pageRuns.map((r) => r.fetchMs)).toFixed(0)} ms); ${what}`,
    }),
    makeFigure({
      suite: 'app',
      name: 'replay against the machine (background)',
      unit: 'ms',
      better: 'lower',
      runs: pageRuns.map((r) => r.analysisMs),
      baseline: {
        name: 'bare JSON.parse of the same lines, in the page',
        runs: parse,
        describe: (x) => ratioText(x, 'longer'),
      },
      note: 'click until the analysis says replayed (sliced between frames; the page stays responsive meanwhile)',
    }),
    makeFigure({
      suite: 'app',
      name: 'step once',
      unit: 'ms',
      better: 'lower',
      runs: pageRuns.flatMap((r) => r.stepMs),
      baseline: {
        name: 'one frame interval (requestAnimationFrame), same page',
        runs: pageRuns.flatMap((r) => r.framesMs),
        describe: (x) => ratioText(x, 'a frame'),
      },
      target: { text: '< 16 ms', test: (s) => s.median < 16 },
      note: `click "step forward" until the DOM has the new step (MutationObserver), ${steps} steps in each page load, after the replay finished`,
    }),
  ];
}
