import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/*
 * End-to-end plumbing: the built app served by the real CLI in a child
 * process on a free loopback port, real agent processes, and Debian's
 * Chromium driven headless (never a downloaded browser).
 */

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const CHROMIUM = '/usr/bin/chromium';
const TSX = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
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

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`e2e: ${CHROMIUM} is missing: apt-get install chromium (.ci/run does), never a downloaded browser`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface Served {
  url: string;
  origin: string;
  token: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

const children = new Set<ChildProcess>();

/** `assistant-safety serve --port 0` in a child process; resolves with the URL it prints. */
export function startServe(args: string[] = []): Promise<Served> {
  const child = spawn(process.execPath, [TSX, join(root, 'src', 'cli', 'bin.ts'), 'serve', '--port', '0', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`serve printed no URL in 20 s:\n${out}`)), 20_000);
    const onData = (data: Buffer) => {
      out += String(data);
      const line = out.split('\n').find((l) => /^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+$/.test(l.trim()));
      if (!line) return;
      clearTimeout(timer);
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
  const child = spawn(process.execPath, [TSX, join(root, 'scripts', 'live-agent.ts'), url, ...args], {
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

/** Saves a screenshot of the page as a test artifact: test-results/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(RESULTS, { recursive: true });
  const path = join(RESULTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}
