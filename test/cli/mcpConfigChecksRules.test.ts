import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

/*
 * `mcp-config --rules FILE` puts FILE into the client's entry, and the gateway refuses to start
 * on a missing or invalid rules file, so the client would lose the server at every start: the
 * file is checked as the gateway loads it, and a bad one is refused in one line, exit 2, with
 * nothing printed or written.
 */

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

describe('mcp-config --rules', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-config-rules-'));
  const notRules = join(dir, 'not-rules.json');
  writeFileSync(notRules, JSON.stringify({ tools: 5 }));

  it.each([
    [join(dir, 'missing.json'), /missing\.json: ENOENT/],
    [notRules, /not-rules\.json: invalid classifier rules: tools/],
  ])('refuses %s in one line, writing nothing', async (rules, named) => {
    const config = join(mkdtempSync(join(dir, 'refused-')), 'config.json');
    const r = await cli('mcp-config', 'cursor', '--rules', rules, '--write', '--config', config, '--', 'srv');
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err.trimEnd().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/^mcp-config: --rules /);
    expect(r.err).toMatch(named);
    expect(existsSync(config)).toBe(false);
  });

  it('writes an entry for rules the gateway loads', async () => {
    const rules = join(dir, 'rules.json');
    writeFileSync(rules, JSON.stringify({ tools: { wipe: 'write' } }));
    const config = join(dir, 'config.json');
    const r = await cli('mcp-config', 'cursor', '--rules', rules, '--write', '--config', config, '--', 'srv');
    expect(r.code, r.err).toBe(0);
    expect(existsSync(config)).toBe(true);
  });
});
