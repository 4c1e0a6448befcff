import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../server/helpers.js';

/*
 * `npx tsx examples/claude-agent-sdk-agent.ts --offline`, as docs/coding-agents.md gives it, run
 * where stdin is no terminal and brings no answer (a CI job, an empty pipe, /dev/null): the
 * question is answered "no", in one line that says so, and the example finishes.
 */

const run = (input: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(root, 'examples/claude-agent-sdk-agent.ts'), '--offline'], {
    cwd: root,
    input,
    encoding: 'utf8',
    timeout: 50_000,
  });

describe('the Claude Agent SDK example with no answer on stdin', () => {
  it('takes the question as refused, says so and finishes', () => {
    const r = run('');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('[y/N]');
    expect(r.stdout.split('\n').filter((l) => /no answer/.test(l))).toHaveLength(1);
    expect(r.stdout).toContain('the person: deny');
  }, 60_000);

  it('still takes a last answer that has no newline', () => {
    const r = run('y');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('the person: allow');
  }, 60_000);
});
