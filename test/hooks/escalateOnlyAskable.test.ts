import { describe, expect, it } from 'vitest';
import { runClaudeCodeHook } from '../../src/cli/hookClaudeCode.js';
import { runCli } from '../cli/runCli.js';

/*
 * `--escalate` names the blocks a hook puts to a person. A code no person can lift (a write still
 * running, a profile's refusal) or that is never asked (an agent's stop) would change nothing, so
 * it is refused in one line, by the hook and by `hook install`, before anything is written.
 */

const noInput = async () => {
  throw new Error('stdin is not read when the options are wrong');
};

async function hookErr(escalate: string) {
  let err = '';
  const code = await runClaudeCodeHook(
    ['--escalate', escalate],
    { out: () => undefined, err: (t) => (err += t) },
    noInput,
  );
  return { code, err };
}

describe('hook --escalate with a code a person cannot be asked about', () => {
  it.each([
    ['WRITE_IN_FLIGHT', "only the running change's result lifts it"],
    ['POLICY_DENIED', 'nothing a person says lifts it'],
    ['FINAL_ANSWER_UNVERIFIED', 'a stop is never asked'],
  ])('refuses %s, saying why and which codes can be asked', async (code, why) => {
    const r = await hookErr(`TARGET_NOT_VALIDATED,${code}`);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`--escalate: ${code} cannot be asked (${why}`);
    expect(r.err).toContain(
      'a person can be asked about NO_VALIDATED_TARGET, UNVERIFIED_WRITE, TARGET_NOT_VALIDATED, EGRESS_NOT_VALIDATED',
    );
  });

  it('is refused by hook install too, writing nothing', async () => {
    const r = await runCli(['hook', 'install', 'claude-code', '--dry-run', '--', '--escalate', 'WRITE_IN_FLIGHT']);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain('WRITE_IN_FLIGHT cannot be asked');
  });

  it('is refused by mcp-gateway too, before any server starts', async () => {
    const r = await runCli(['mcp-gateway', '--escalate', 'POLICY_DENIED', '--', 'assistant-safety-no-such-server']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--escalate: POLICY_DENIED cannot be asked (nothing a person says lifts it)');
  });
});
