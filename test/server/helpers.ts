import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer, type ServerOptions } from '../../src/server/startServer.js';
import type { SafetySession } from '../../src/index.js';
import { blockedRecording, toJSONL } from '../viz/fixtures.js';

export const root = fileURLToPath(new URL('../..', import.meta.url));

/** A server on a free port with a temporary recordings folder holding `blocked.jsonl`, and a tiny app. */
export async function startTestServer(options: Partial<ServerOptions> = {}): Promise<RunningServer & { dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'viz-server-'));
  const recordingsDir = join(dir, 'recordings');
  const appDir = join(dir, 'app');
  mkdirSync(recordingsDir);
  mkdirSync(appDir);
  writeFileSync(join(recordingsDir, 'blocked.jsonl'), toJSONL(blockedRecording()));
  writeFileSync(join(dir, 'secret.jsonl'), 'outside the recordings folder\n');
  writeFileSync(join(appDir, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(join(appDir, 'app.js'), 'console.log("the app");');
  const server = await startServer({
    recordingsDir,
    appDir,
    machinesDir: join(root, 'machines'),
    ...options,
  });
  return { ...server, dir };
}

/** Polls until `check` holds; fails after `ms`. */
export const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** `n` reads, begun and ended: 2n entries. */
export function drive(session: SafetySession, n: number) {
  for (let i = 0; i < n; i++) {
    session.beginToolCall({ id: `r${i}`, kind: 'read', tool: 'get_status' });
    session.endToolCall({ id: `r${i}`, ok: true });
  }
}
