import { describe, expect, it } from 'vitest';
import { runClaudeCodeHook } from '../../src/cli/hookClaudeCode.js';
import { runAgentHook } from '../../src/cli/hookAgent.js';

/*
 * What a hook writes on stderr is what the agent shows the person as the reason it refused the
 * call: a wrong option is named in one line, with the option meant and where the help is, in
 * the words of the CLI's other argument errors; never the whole usage.
 */

async function hook(run: (io: { out: (t: string) => void; err: (t: string) => void }) => Promise<number>) {
  let out = '';
  let err = '';
  const code = await run({ out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

const noInput = async () => {
  throw new Error('stdin is not read when the options are wrong');
};

describe('a hook given a wrong option', () => {
  it('names it in one line with the option meant: hook claude-code --rulez', async () => {
    const r = await hook((io) => runClaudeCodeHook(['--rulez', 'x.json'], io, noInput));
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toBe(
      'assistant-safety hook: unknown option --rulez (did you mean --rules?); see assistant-safety hook claude-code --help\n',
    );
  });

  it('says an option needs a value, and a stray word, in one line each', async () => {
    const value = await hook((io) => runClaudeCodeHook(['--state-dir'], io, noInput));
    expect(value.code).toBe(2);
    expect(value.err).toMatch(/^assistant-safety hook: option --state-dir needs a value; see .* --help\n$/);
    const stray = await hook((io) => runClaudeCodeHook(['--shadow', 'yes'], io, noInput));
    expect(stray.code).toBe(2);
    expect(stray.err).toMatch(/^assistant-safety hook: unexpected argument yes; see .* --help\n$/);
  });

  it.each(['codex', 'gemini', 'cursor'] as const)(
    'names it in one line for hook %s, pointing at its help',
    async (agent) => {
      const r = await hook((io) => runAgentHook(agent, ['--stat-dir', '/tmp/x'], io, noInput));
      expect(r.code).toBe(2);
      expect(r.err).toBe(
        `assistant-safety hook: unknown option --stat-dir (did you mean --state-dir?); see assistant-safety hook ${agent} --help\n`,
      );
    },
  );

  it('suggests the block reason meant for a misspelt --escalate code', async () => {
    const r = await hook((io) => runClaudeCodeHook(['--escalate', 'TARGET_NOT_VALIDATD'], io, noInput));
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      'assistant-safety hook: --escalate: unknown block reason "TARGET_NOT_VALIDATD" (did you mean TARGET_NOT_VALIDATED?)\n',
    );
  });
});
