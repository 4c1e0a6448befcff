import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../server/helpers.js';

/*
 * The Claude Agent SDK example runs in Node as written: the person is asked through
 * node:readline (Node has no `confirm`), and its offline run drives the SDK's hooks with the
 * SDK's own hook input types, with no model and no network.
 */

const run = (answer: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(root, 'examples/claude-agent-sdk-agent.ts'), '--offline'], {
    cwd: root,
    input: answer,
    encoding: 'utf8',
  });

describe('examples/claude-agent-sdk-agent.ts', () => {
  it('asks the person in one sentence naming the file, and sends an unchecked stop back once', () => {
    const yes = run('y\n');
    expect(yes.status, yes.stderr).toBe(0);
    expect(yes.stdout).toContain('Allow Edit of src/config.ts, which this session has not read? [y/N]');
    expect(yes.stdout).not.toContain('{');
    expect(yes.stdout).toContain('the person: allow');
    expect(yes.stdout).toMatch(/Stop: block: Read src\/config\.ts again/);
    expect(yes.stdout).toContain('Stop after reading the file: allowed');
  }, 60_000);

  it('denies when the person says no', () => {
    const no = run('n\n');
    expect(no.status, no.stderr).toBe(0);
    expect(no.stdout).toContain('the person: deny');
  }, 60_000);
});
