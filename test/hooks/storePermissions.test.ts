import { chmodSync, chownSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { createFileSessionStore } from 'assistant-safety/node';
import { edit, events, read } from './fixtures.js';
import { bundleHook, decisionOf, runHook } from './hookProcess.js';

/*
 * The state folder belongs to the user alone: created 0700 whatever the umask, and a session
 * file (or folder) another user could have written is refused, never decided on.
 */

let bundle: string;
beforeAll(() => {
  bundle = bundleHook();
}, 60_000);

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);
/** The session's latest revision file. */
const revFile = (folder: string) => {
  const revs = readdirSync(folder)
    .filter((n) => /^[0-9]+\.json$/.test(n))
    .map((n) => Number.parseInt(n, 10));
  return join(folder, `${Math.max(...revs)}.json`);
};

describe('the hook’s state folder', () => {
  it('creates its folders 0700 under umask 000', () => {
    const root = mkdtempSync(join(tmpdir(), 'hook-umask-'));
    const dir = join(root, 'state', 'sessions');
    const run = spawnSync('sh', ['-c', `umask 000 && exec "${process.execPath}" "${bundle}"`], {
      input: JSON.stringify(events('umask').pre('Read', read(), 'r1')),
      env: { ...process.env, ASSISTANT_SAFETY_STATE_DIR: dir },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(modeOf(join(root, 'state'))).toBe('700');
    expect(modeOf(dir)).toBe('700');
    expect(modeOf(join(dir, 'umask'))).toBe('700');
    expect(modeOf(revFile(join(dir, 'umask')))).toBe('600');
  });

  it('refuses a session file writable by others, or not the user’s own, and the hook denies', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hook-planted-'));
    const e = events('planted');
    await runHook(bundle, dir, e.pre('Read', read(), 'r1'));
    await runHook(bundle, dir, e.post('Read', read(), 'r1'));
    const file = revFile(join(dir, 'planted'));
    chmodSync(file, 0o666);
    const open = await runHook(bundle, dir, e.pre('Edit', edit(), 'w1'));
    expect(decisionOf(open)).toEqual({ decision: 'exit 2' });
    expect(open.stderr).toMatch(/session file .* is not trusted: it is writable by group or others \(mode 666\)/);
    await expect(createFileSessionStore({ dir }).get('planted')).rejects.toThrow(/not trusted/);

    chmodSync(file, 0o600);
    expect(decisionOf(await runHook(bundle, dir, e.pre('Edit', edit(), 'w2')))).toEqual({ decision: 'allow' });
    if (process.getuid?.() === 0) {
      // Another user's file (only root can make one here).
      chownSync(revFile(join(dir, 'planted')), 4242, 4242);
      const foreign = await runHook(bundle, dir, e.post('Edit', edit(), 'w2'));
      expect(foreign.code).toBe(2);
      expect(foreign.stderr).toMatch(/is not trusted: it belongs to user id 4242/);
    }
  });

  it('refuses a session folder writable by others', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hook-folder-'));
    const e = events('open-folder');
    await runHook(bundle, dir, e.pre('Read', read(), 'r1'));
    chmodSync(join(dir, 'open-folder'), 0o777);
    const run = await runHook(bundle, dir, e.post('Read', read(), 'r1'));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/session folder .*open-folder is not trusted: it is writable by group or others/);
  });
});
