import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

/*
 * `hook install --help` is read by a person installing the gate: the installer's usage comes
 * first, not the hook command's (which the agent runs, and which follows it).
 */

async function help(...argv: string[]) {
  let out = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: () => {} });
  return { code, out };
}

describe('hook install --help', () => {
  it.each(['hook install --help', 'hook install claude-code --help'])(
    '%s starts with the install usage, the hook command after it',
    async (line) => {
      const { code, out } = await help(...line.split(' '));
      expect(code).toBe(0);
      expect(out.split('\n')[0]).toMatch(/^assistant-safety hook install claude-code /);
      const install = out.indexOf('assistant-safety hook install claude-code');
      const command = out.indexOf('assistant-safety hook claude-code');
      expect(command).toBeGreaterThan(install);
    },
  );
});
