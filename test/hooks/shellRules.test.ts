import { describe, expect, it } from 'vitest';
import { ClassifierRulesError } from 'assistant-safety';
import { createCodingAgentClassifier } from 'assistant-safety/hooks';

/* The `shell` section of a rules file names extra read, file-read and check commands; it is validated, naming the path. */

describe('the shell section of a rules file', () => {
  const classify = createCodingAgentClassifier({
    cwd: '/repo',
    rules: {
      tools: { mcp__db__query: 'read' },
      shell: { reads: ['kubectl get'], fileReads: ['bat'], checks: ['just test', 'bazel test'] },
    },
  });

  it('adds reads, file reads and checks', () => {
    expect(classify('Bash', { command: 'kubectl get pods -A' })).toMatchObject({ kind: 'read' });
    expect(classify('Bash', { command: 'kubectl delete pod x' }).kind).toBe('write');
    expect(classify('Bash', { command: 'bat -n src/a.ts' })).toMatchObject({
      kind: 'read',
      targets: ['file:/repo/src/a.ts'],
    });
    expect(classify('Bash', { command: 'just test && bazel test //...' })).toMatchObject({ kind: 'read', check: true });
    expect(classify('Bash', { command: 'just test --watch' }).kind).toBe('write');
    expect(classify('Bash', { command: 'bat $F' }).kind).toBe('write');
    // The rest of the rules file still applies.
    expect(classify('mcp__db__query', {}).kind).toBe('read');
  });

  it('without the section, those commands stay writes', () => {
    const plain = createCodingAgentClassifier({ cwd: '/repo' });
    expect(plain('Bash', { command: 'just test' }).kind).toBe('write');
    expect(plain('Bash', { command: 'bat src/a.ts' }).kind).toBe('write');
  });

  it.each([
    [{ shell: { reads: ['rm -rf /; ls'] } }, /shell\.reads\[0\]/],
    [{ shell: { checks: 'just test' } }, /shell\.checks/],
    [{ shell: { writes: ['x'] } }, /shell/],
    [{ shell: { reads: [''] } }, /shell\.reads\[0\]/],
  ])('refuses a malformed section, naming the path: %j', (rules, path) => {
    expect(() => createCodingAgentClassifier({ rules })).toThrow(ClassifierRulesError);
    expect(() => createCodingAgentClassifier({ rules })).toThrow(path);
  });
});
