import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  applyCall,
  createSafetySession,
  type PersistedSession,
  type RecordingEntry,
  type SafetySession,
} from 'assistant-safety';

/** The repository root: worker scripts run there so `assistant-safety/*` resolves through tsconfig paths. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Starts `node --import tsx SCRIPT ARGS...` in the repository root, stdout and stderr collected. */
export function startWorker(script: string, args: string[]): ChildProcess & { output: Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += String(d)));
  child.stderr!.on('data', (d: Buffer) => (err += String(d)));
  const output = new Promise<string>((resolve, reject) =>
    child.once('exit', (code, signal) =>
      code === 0 ? resolve(out) : reject(new Error(`worker exited with ${code ?? signal}\n${out}\n${err}`)),
    ),
  );
  output.catch(() => undefined);
  return Object.assign(child, { output });
}

/**
 * Replays a session's recording one entry after the other, in stream order,
 * on a fresh in-memory session with the recorded clock: what a single
 * process would have ended with had it made every call itself.
 */
export function replaySequentially(entries: readonly RecordingEntry[]): PersistedSession {
  let clock = 0;
  let session: SafetySession | undefined;
  for (const entry of entries) {
    clock = entry.at;
    if (entry.call.type === 'create') {
      session = createSafetySession({ id: entry.session, now: () => clock, ...entry.call.config });
    } else {
      if (!session) throw new Error(`entry ${entry.seq}: the recording does not start with its create entry`);
      applyCall(session, entry.call);
    }
  }
  if (!session) throw new Error('an empty recording');
  return session.persist();
}
