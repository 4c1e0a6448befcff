import { readdirSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { edit, events, read } from './fixtures.js';
import { bundleHook, decisionOf, runHook } from './hookProcess.js';

/*
 * Whether the gate enforces comes from the hook's configuration (--shadow, or
 * ASSISTANT_SAFETY_HOOK_MODE), never from the session file: a file edited to shadow lets nothing through.
 */

let bundle: string;
beforeAll(() => {
  bundle = bundleHook();
}, 60_000);

describe('the hook’s mode', () => {
  it('stays enforce when the session file is edited to shadow', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hook-mode-'));
    const e = events('mode');
    await runHook(bundle, dir, e.pre('Read', read('/home/dev/repo/src/other.ts'), 'r1'));
    await runHook(bundle, dir, e.post('Read', read('/home/dev/repo/src/other.ts'), 'r1'));
    const folder = join(dir, 'mode');
    for (const name of readdirSync(folder).filter((n) => n.endsWith('.json'))) {
      const file = JSON.parse(readFileSync(join(folder, name), 'utf8')) as {
        snapshot: { context: { config: Record<string, unknown> }; checksum?: string };
      };
      file.snapshot.context.config.mode = 'shadow';
      delete file.snapshot.checksum;
      writeFileSync(join(folder, name), JSON.stringify(file));
    }
    expect(decisionOf(await runHook(bundle, dir, e.pre('Edit', edit(), 'w1')))).toEqual({
      decision: 'deny',
      reasonCode: 'TARGET_NOT_VALIDATED',
    });
  });

  it('is shadow when the configuration says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hook-mode-'));
    const e = events('shadow');
    expect(decisionOf(await runHook(bundle, dir, e.pre('Edit', edit(), 'w1'), ['--shadow']))).toEqual({
      decision: 'allow',
    });
  });
});
