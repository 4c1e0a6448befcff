import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import WebSocket from 'ws';
import { LIVE_PATH, ServerMessage, TOKEN_HEADER, type LiveSessionInfo } from '../../src/live/protocol.js';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from '../../scripts/chromium.js';

/*
 * End-to-end plumbing: the built app served by the real CLI in a child
 * process on a free loopback port, real agent processes, and Debian's
 * Chromium driven headless (never a downloaded browser).
 */

export const root = fileURLToPath(new URL('../..', import.meta.url));
// `node --import tsx`, not the tsx CLI, whose signal relay turns a slow child's Ctrl-C into exit 130.
const TSX = ['--import', 'tsx'];
export const RESULTS = join(root, 'test-results');

/** Builds the app if `npm run build` has not (a lone `vitest run test/e2e`). */
export function ensureAppBuilt(): void {
  if (existsSync(join(root, 'dist', 'viz', 'index.html'))) return;
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) throw new Error('e2e: building the app failed');
}

export { launchChromium };

export interface Served {
  url: string;
  origin: string;
  token: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

const children = new Set<ChildProcess>();

/** `assistant-safety serve --port 0` in a child process; resolves with the URL it prints, rejects if it exits first. */
export function startServe(args: string[] = []): Promise<Served> {
  const child = spawn(process.execPath, [...TSX, join(root, 'src', 'cli', 'bin.ts'), 'serve', '--port', '0', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  // Waits for the URL line or the process's exit (events), not for a time: on a busy machine tsx
  // may take long to start, and the calling hook's own timeout catches a serve that hangs.
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (data: Buffer) => {
      out += String(data);
      const line = out.split('\n').find((l) => /^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+$/.test(l.trim()));
      if (!line) return;
      const url = new URL(line.trim());
      resolve({
        url: line.trim(),
        origin: url.origin,
        token: url.searchParams.get('token')!,
        process: child,
        stop: () => stop(child),
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (out += String(d)));
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${out}`)));
  });
}

/** A real agent process streaming to the server (scripts/live-agent.ts). */
export function startAgent(
  url: string,
  args: string[],
): { process: ChildProcess; output: () => string; done: Promise<number> } {
  const child = spawn(process.execPath, [...TSX, join(root, 'scripts', 'live-agent.ts'), url, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += String(d)));
  child.stderr!.on('data', (d: Buffer) => (out += String(d)));
  const done = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
  return { process: child, output: () => out, done };
}

/**
 * A viewer of the hub at `url` (what `serve` printed): the sessions it last listed, and a
 * promise for the first list that satisfies `check`, so a test waits for an event, not a time.
 */
export function watchLiveSessions(url: string): {
  until(check: (sessions: LiveSessionInfo[]) => boolean): Promise<LiveSessionInfo[]>;
  close(): void;
} {
  const u = new URL(url);
  const ws = new WebSocket(`ws://${u.host}${LIVE_PATH}`, { headers: { [TOKEN_HEADER]: u.searchParams.get('token')! } });
  let latest: LiveSessionInfo[] = [];
  const waiters = new Set<{ check: (s: LiveSessionInfo[]) => boolean; resolve: (s: LiveSessionInfo[]) => void }>();
  ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', role: 'viewer' })));
  ws.on('message', (data) => {
    const message = ServerMessage.parse(JSON.parse(String(data)));
    if (message.type !== 'sessions') return;
    latest = message.sessions;
    for (const w of waiters) if (w.check(latest)) (waiters.delete(w), w.resolve(latest));
  });
  return {
    until: (check) =>
      check(latest) ? Promise.resolve(latest) : new Promise((resolve) => waiters.add({ check, resolve })),
    close: () => ws.close(),
  };
}

export function stop(child: ChildProcess): Promise<void> {
  children.delete(child);
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.on('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Stops every child this file started. */
export async function stopAll(): Promise<void> {
  await Promise.all([...children].map(stop));
}

/** A page that fails the test on any uncaught error in the app. */
export async function newPage(browser: Browser, errors: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  page.on('pageerror', (e) => errors.push(e.message));
  return page;
}

/** A new folder under the system's temp folder holding `files` (name → contents); returns its path. */
export function tempFolder(prefix: string, files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [name, contents] of Object.entries(files)) writeFileSync(join(dir, name), contents);
  return dir;
}

/** Saves a screenshot of the page as a test artifact: test-results/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(RESULTS, { recursive: true });
  const path = join(RESULTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

export interface ServedApp {
  browser: Browser;
  served: Served;
  page: Page;
  /** Uncaught errors in `page`: tests expect it to stay empty. */
  errors: string[];
}

export interface ServedAppOptions {
  /** The arguments after `serve --port 0`; called in beforeAll, so it may write the folders it names. */
  serve?: () => string[];
  /** The app's mode in the page's URL (`&mode=<mode>`); none: the app picks its own. */
  mode?: string;
  /** false: the page is left blank for the first test to open. Default true. */
  open?: boolean;
  /** beforeAll's timeout in ms. */
  timeout?: number;
}

/**
 * The built app served by the CLI and open in a Chromium page, set up once for
 * the calling test file (beforeAll) and torn down after it (afterAll). The
 * returned object is filled in by beforeAll: read its fields inside tests.
 */
export function serveAppInBrowser({ serve, mode, open = true, timeout = 120_000 }: ServedAppOptions = {}): ServedApp {
  const app = { errors: [] as string[] } as ServedApp;
  beforeAll(async () => {
    ensureAppBuilt();
    const args = serve?.() ?? [];
    [app.browser, app.served] = await Promise.all([launchChromium(), startServe(args)]);
    app.page = await newPage(app.browser, app.errors);
    if (open) await app.page.goto(mode ? `${app.served.url}&mode=${mode}` : app.served.url);
  }, timeout);
  afterAll(async () => {
    await app.browser?.close();
    await stopAll();
  });
  return app;
}
