import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

/*
 * `paths --help` says what `paths` does: the file names `--out` writes, for
 * every format, and the cost of the mutants as measured (CPU seconds, which
 * do not depend on how loaded the machine is).
 */

const run = async (args: string[]) => {
  let out = '';
  const code = await main(args, { out: (t) => (out += `${t}\n`), err: (t) => (out += `${t}\n`) });
  return { code, out };
};

describe('assistant-safety paths --help', () => {
  it('should list the extension of every file --out writes', async () => {
    const { out } = await run(['paths', '--help']);
    const listed = /DIR\/paths-<strategy>\.<([a-z|]+)>/.exec(out)?.[1]?.split('|');
    expect(listed).toBeDefined();
    for (const format of ['json', 'md', 'html', 'junit']) {
      const dir = mkdtempSync(join(tmpdir(), 'as-paths-help-'));
      const args = [
        'paths',
        '--format',
        format,
        '--out',
        dir,
        ...(format === 'json' || format === 'junit' ? [] : ['--skip-mutants']),
      ];
      expect((await run(args)).code).toBe(0);
      const [written] = readdirSync(dir);
      expect(existsSync(join(dir, written!))).toBe(true);
      expect(listed, `${written} is not in the --help list`).toContain(written!.split('.').pop());
    }
  }, 120_000);

  it('should state the mutants cost as measured, not 20 s', async () => {
    const { out } = await run(['paths', '--help']);
    expect(out).not.toMatch(/about 20 s/);
    expect(out).toMatch(/mutants\s+add about 5 s of CPU time/);
  });
});
