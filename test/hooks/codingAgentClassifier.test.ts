import { describe, expect, it } from 'vitest';
import { ClassifierRulesError } from 'assistant-safety';
import { codingAgentClassifier, createCodingAgentClassifier, fileTarget } from 'assistant-safety/hooks';

/* The coding-agent tools out of the box, their file targets, and rules files on top. */

describe('the coding-agent classifier', () => {
  it('gives the file tools their file as target', () => {
    expect(codingAgentClassifier('Edit', { file_path: '/repo/a.ts', old_string: 'a', new_string: 'b' })).toMatchObject({
      kind: 'write',
      targets: ['file:/repo/a.ts'],
    });
    for (const tool of ['Write', 'MultiEdit'])
      expect(codingAgentClassifier(tool, { file_path: '/repo/b.ts' })).toMatchObject({
        kind: 'write',
        targets: ['file:/repo/b.ts'],
      });
    expect(codingAgentClassifier('NotebookEdit', { notebook_path: '/repo/n.ipynb', new_source: '' })).toMatchObject({
      kind: 'write',
      targets: ['file:/repo/n.ipynb'],
    });
    // Reading the edited file names the same target, so it can verify it.
    expect(codingAgentClassifier('Read', { file_path: '/repo/./src/../a.ts' })).toMatchObject({
      kind: 'read',
      targets: ['file:/repo/a.ts'],
    });
  });

  it('reads with the search and web tools, the web as untrusted', () => {
    for (const tool of ['Grep', 'Glob', 'LS', 'NotebookRead', 'WebFetch', 'WebSearch'])
      expect(codingAgentClassifier(tool, {}).kind, tool).toBe('read');
    expect(codingAgentClassifier('WebFetch', { url: 'https://example.com' }).trust).toBe('untrusted');
  });

  it('makes TodoWrite a state-only write', () => {
    expect(codingAgentClassifier('TodoWrite', { todos: [] })).toMatchObject({ kind: 'write', stateOnly: true });
  });

  it('judges Bash by its command, and a file tool with no path as a write', () => {
    expect(codingAgentClassifier('Bash', { command: 'ls | grep x' }).kind).toBe('read');
    expect(codingAgentClassifier('Bash', { command: 'rm -rf src/legacy && ls' })).toMatchObject({
      kind: 'write',
      rule: expect.stringMatching(/"rm"/),
    });
    expect(codingAgentClassifier('Bash', {}).kind).toBe('write');
    expect(codingAgentClassifier('Edit', {})).toMatchObject({ kind: 'write', rule: 'Edit with no file_path' });
    expect(codingAgentClassifier('Edit', { file_path: 7 }).kind).toBe('write');
  });

  it('classifies MCP tools and anything unknown by the rules, else as a write', () => {
    expect(codingAgentClassifier('mcp__github__create_issue', {}).kind).toBe('write');
    expect(codingAgentClassifier('mcp__db__run', { action: 'list' }).kind).toBe('read');
    const classify = createCodingAgentClassifier({
      rules: { tools: { mcp__db__query: 'read', Edit: 'read', Bash: 'read' } },
    });
    expect(classify('mcp__db__query', {}).kind).toBe('read');
    // A rules file wins over the table (and keeps the file target).
    expect(classify('Edit', { file_path: '/a' })).toMatchObject({
      kind: 'read',
      targets: ['file:/a'],
      rule: 'the rules file',
    });
    expect(classify('Bash', { command: 'rm -rf /' }).kind).toBe('read');
  });

  it('takes targets, state-only and trust from a rules file for MCP tools', () => {
    const classify = createCodingAgentClassifier({
      rules: {
        tools: {
          mcp__infra__restart: { kind: 'write', targets: ['host'], prefix: 'host:' },
          mcp__notes__add: { kind: 'write', stateOnly: true },
          mcp__mail__read: { kind: 'read', trust: 'untrusted' },
        },
      },
    });
    expect(classify('mcp__infra__restart', { host: 'web-1' })).toMatchObject({
      kind: 'write',
      targets: ['host:web-1'],
    });
    expect(classify('mcp__notes__add', {})).toMatchObject({ kind: 'write', stateOnly: true });
    expect(classify('mcp__mail__read', {})).toMatchObject({ kind: 'read', trust: 'untrusted' });
  });

  it('rejects malformed rules naming the path', () => {
    expect(() => createCodingAgentClassifier({ rules: { tools: { Edit: 'sometimes' } } })).toThrow(
      ClassifierRulesError,
    );
    expect(() => createCodingAgentClassifier({ rules: { tools: { Edit: 'sometimes' } } })).toThrow(/tools\.Edit/);
  });

  it('never throws on hostile input', () => {
    const hostile = new Proxy(
      {},
      {
        getOwnPropertyDescriptor: () => {
          throw new Error('no');
        },
      },
    );
    expect(codingAgentClassifier('Edit', hostile).kind).toBe('write');
    expect(codingAgentClassifier(undefined as unknown as string).kind).toBe('write');
  });

  it('makes file targets absolute and plain', () => {
    expect(fileTarget('src/a.ts', '/repo')).toBe('file:/repo/src/a.ts');
    expect(fileTarget('/repo//src/./b/../a.ts')).toBe('file:/repo/src/a.ts');
    expect(fileTarget('C:\\repo\\a.ts')).toBe('file:C:/repo/a.ts');
    expect(createCodingAgentClassifier({ cwd: '/repo' })('Read', { file_path: 'a.ts' }).targets).toEqual([
      'file:/repo/a.ts',
    ]);
  });
});
