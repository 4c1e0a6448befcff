import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createFileSessionStore, defaultStateDir, SessionFileError } from 'assistant-safety/node';
import { root } from '../server/helpers.js';
import { edit, events, read } from './fixtures.js';
import { bundleHook, decisionOf, runHook } from './hookProcess.js';

/* Sessions in files: what a killed writer leaves, what a corrupt file does, expiry, the state folder. */

const tmp = () => mkdtempSync(join(tmpdir(), 'file-store-'));
let bundle: string;
let writer: string;
beforeAll(() => {
  bundle = bundleHook();
  writer = join(tmp(), 'writer.mjs');
  const result = spawnSync(
    join(root, 'node_modules', '.bin', 'esbuild'),
    [
      join(root, 'test/hooks/storeWriter.ts'),
      '--bundle',
      '--platform=node',
      '--format=esm',
      `--outfile=${writer}`,
      '--log-level=error',
    ],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(result.stderr);
}, 60_000);

const folderOf = (dir: string, id: string) => join(dir, id);

describe('createFileSessionStore', () => {
  it('keeps a session readable when its writer is killed mid-write', async () => {
    const dir = tmp();
    for (let round = 0; round < 5; round++) {
      const child = spawn(process.execPath, [writer, dir, 'killed'], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 60));
      child.kill('SIGKILL');
      await exited;
      const stored = await createFileSessionStore({ dir }).get('killed');
      expect(stored!.session.state).toBe('READING');
      expect(stored!.notes.blob).toBe(String(stored!.notes.n).repeat(1 << 20));
    }
    // And the next hook on it decides as usual.
    const run = await runHook(bundle, dir, events('killed').pre('Edit', edit(), 'w1'));
    expect(decisionOf(run)).toEqual({ decision: 'allow' });
  }, 60_000);

  it('refuses a hand-corrupted session file with a clear error, and the hook denies', async () => {
    const dir = tmp();
    const store = createFileSessionStore({ dir });
    const e = events('corrupt');
    await store.withSession('corrupt', (s) => {
      s.beginToolCall({ id: 'r1', kind: 'read', tool: 'Read' });
      s.endToolCall({ id: 'r1', ok: true });
    });
    const file = readdirSync(folderOf(dir, 'corrupt')).find((n) => /^[0-9]+\.json$/.test(n));
    writeFileSync(join(folderOf(dir, 'corrupt'), file!), '{"format":"assistant-safety/session-file", "rev": ');
    await expect(store.get('corrupt')).rejects.toThrow(SessionFileError);
    await expect(store.withSession('corrupt', () => 1)).rejects.toThrow(
      new RegExp(`the session file .*${file}.* is corrupt \\(not JSON`),
    );
    const run = await runHook(bundle, dir, e.pre('Read', read(), 'r2'));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/is corrupt .*nothing was decided.*refused/);
    expect(run.stderr).toContain('Remove the file to start the session again; the call is refused'); // one sentence, no '.;'

    // Valid JSON with a broken snapshot: named too.
    writeFileSync(
      join(folderOf(dir, 'corrupt'), file!),
      JSON.stringify({
        format: 'assistant-safety/session-file',
        version: 1,
        id: 'corrupt',
        rev: 1,
        savedAt: Date.now(),
        notes: {},
        snapshot: { format: 'x' },
      }),
    );
    await expect(store.withSession('corrupt', () => 1)).rejects.toThrow(/is corrupt: invalid snapshot: format/);
  });

  /*
   * A corrupt file's message quotes a piece of the file (`Unexpected token 'h', "hello\nworld" is
   * not valid JSON`): before, its line break went to stderr as it was, splitting the hook's
   * one-line refusal in two. Now it is written `\n`, and the place is given as line and column.
   */
  it('says what is wrong with a corrupt file in one line, whatever the file holds', async () => {
    const dir = tmp();
    const store = createFileSessionStore({ dir });
    await store.withSession('lines', (s) => s.beginToolCall({ id: 'r1', kind: 'read', tool: 'Read' }));
    const file = readdirSync(folderOf(dir, 'lines')).find((n) => /^[0-9]+\.json$/.test(n))!;
    writeFileSync(join(folderOf(dir, 'lines'), file), 'hello\nworld');
    const quoted = await store.get('lines').catch((e: Error) => e.message);
    expect(quoted).toMatch(/is corrupt \(not JSON: Unexpected token 'h', "hello\\nworld" is not valid JSON\)/);
    expect(quoted).not.toMatch(/\n/);
    writeFileSync(join(folderOf(dir, 'lines'), file), '{\n  "rev": 1,\n  oops\n}');
    const placed = await store.get('lines').catch((e: Error) => e.message);
    expect(placed).toMatch(/is corrupt \(not JSON at line 3, column 3: /);
    expect(placed).not.toMatch(/\n/);
    const run = await runHook(bundle, dir, events('lines').pre('Read', read(), 'r2'));
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/is corrupt .*the call is refused/)]);
  });

  /*
   * A state folder (`--state-dir`) that is a file was called "the session folder … is not trusted:
   * it is not a folder", which named neither the folder the user gave nor what was wrong with it.
   */
  it('names the state folder, and what it is, when it is not a folder', async () => {
    const root = tmp();
    const file = join(root, 'state');
    writeFileSync(file, 'not a folder');
    const message = (dir: string) =>
      createFileSessionStore({ dir })
        .withSession('s', () => 1)
        .then(
          () => 'no error',
          (e: Error) => e.message,
        );
    expect(await message(file)).toBe(
      `the state folder ${file} is a file, not a folder; nothing was decided. Give the hook another state folder (--state-dir), or remove it.`,
    );
    expect(await message(join(file, 'sessions'))).toBe(
      `the state folder ${join(file, 'sessions')} cannot be a folder: a part of its path is a file; nothing was decided. Give the hook another state folder (--state-dir).`,
    );
    const run = await runHook(bundle, file, events('s').pre('Read', read(), 'r1'));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`the state folder ${file} is a file, not a folder`);
  });

  it('expires a session saved longer ago than idleTtlMs, and sweeps it', async () => {
    const dir = tmp();
    let now = 1_000_000;
    const store = createFileSessionStore({ dir, idleTtlMs: 1000, now: () => now });
    await store.withSession('old', (s) => void s.beginToolCall({ id: 'r1', kind: 'read', tool: 'Read' }));
    now += 500;
    expect(Object.keys((await store.get('old'))!.session.context.calls)).toEqual(['r1']);
    now += 1000;
    expect(await store.get('old')).toBeUndefined();
    expect(await store.withSession('old', (s) => Object.keys(s.context.calls))).toEqual([]);
    const late = createFileSessionStore({ dir, idleTtlMs: 1000, now: () => Date.now() + 10_000 });
    expect(await late.sweep()).toBe(1);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('keeps ids that are not file names apart, and rejects an async fn', async () => {
    const dir = tmp();
    const store = createFileSessionStore({ dir });
    await store.withSession('../../etc/passwd', () => 1);
    await store.withSession('a/b', () => 1);
    expect(readdirSync(dir).every((name) => name.startsWith('h-'))).toBe(true);
    expect(readdirSync(dir)).toHaveLength(2);
    await expect(store.withSession('x', async () => 1)).rejects.toThrow(/must run synchronously/);
  });

  it("rejects an async fn that fails without leaving the fn's own rejection unhandled (it would crash the process)", async () => {
    const store = createFileSessionStore({ dir: tmp() });
    const unhandled: unknown[] = [];
    const seen = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', seen);
    try {
      await expect(
        store.withSession('x', async () => {
          throw new Error('the tool failed');
        }),
      ).rejects.toThrow(/must run synchronously \(do the tool call outside/);
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', seen);
    }
  });

  it('refuses a lazy thenable without calling its then (a query builder would run the write then)', async () => {
    const store = createFileSessionStore({ dir: tmp() });
    let ran = false;
    const lazy = {
      then(ok: (v: unknown) => void) {
        ran = true;
        ok('written');
      },
    };
    await expect(store.withSession('lazy', () => lazy)).rejects.toThrow(/must run synchronously/);
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toBe(false);
  });

  it('defaults to the XDG state folder, overridden by ASSISTANT_SAFETY_STATE_DIR', () => {
    expect(defaultStateDir({ XDG_STATE_HOME: '/x' })).toBe('/x/assistant-safety/sessions');
    expect(defaultStateDir({ XDG_STATE_HOME: '/x', ASSISTANT_SAFETY_STATE_DIR: '/y' })).toBe('/y');
    expect(defaultStateDir({ HOME: '/h' })).toMatch(/\.local\/state\/assistant-safety\/sessions$/);
  });
});
