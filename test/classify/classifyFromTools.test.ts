import { describe, expect, it } from 'vitest';
import { ClassifierRulesError, createSafetySession, createToolLoop } from 'assistant-safety';
import { classifyFromTools, ToolDeclarationError } from 'assistant-safety/classify';
import { nameWords } from '../../src/classify/classifyFromTools.js';

const mcpList = {
  tools: [
    { name: 'read_file', annotations: { readOnlyHint: true } },
    { name: 'write_file', annotations: { readOnlyHint: false, destructiveHint: true } },
    { name: 'create_directory', annotations: { destructiveHint: false } },
    { name: 'claims_read_only', annotations: { readOnlyHint: 'true' } },
    { name: 'no_annotations', inputSchema: { type: 'object' } },
  ],
};

describe('classifyFromTools: MCP annotations', () => {
  const classify = classifyFromTools(mcpList);

  it('should make a tool with readOnlyHint true a read, and say so', () => {
    expect(classify('read_file')).toBe('read');
    expect(classify.explain('read_file')).toEqual({
      tool: 'read_file',
      kind: 'read',
      rule: 'annotations',
      detail: 'annotations: readOnlyHint true',
    });
  });

  it('should make every other annotated tool a write, naming destructiveHint when given', () => {
    expect(classify.explain('write_file')).toMatchObject({ kind: 'write', rule: 'annotations' });
    expect(classify.explain('write_file').detail).toBe('annotations: readOnlyHint false, destructiveHint true');
    expect(classify.explain('create_directory')).toMatchObject({ kind: 'write', rule: 'annotations' });
    expect(classify.explain('create_directory').detail).toContain('readOnlyHint absent');
  });

  it('should count only a literal true as read-only', () => {
    expect(classify('claims_read_only')).toBe('write');
  });

  it('should make a tool without annotations, and an unknown tool, a write (fail closed)', () => {
    expect(classify.explain('no_annotations')).toMatchObject({ kind: 'write', rule: 'default' });
    expect(classify.explain('never_listed')).toMatchObject({ kind: 'write', rule: 'default' });
  });
});

describe('classifyFromTools: rules win', () => {
  it('should let a fixed rule override the annotations', () => {
    const classify = classifyFromTools(mcpList, {
      rules: { tools: { read_file: 'write', no_annotations: 'resolve' } },
    });
    expect(classify.explain('read_file')).toEqual({
      tool: 'read_file',
      kind: 'write',
      rule: 'rules',
      detail: 'rules: tools.read_file = write',
    });
    expect(classify('no_annotations')).toBe('resolve');
  });

  it('should decide an argument rule by the argument and explain the rule', () => {
    const classify = classifyFromTools(
      { tools: [{ name: 'vm', annotations: { readOnlyHint: true } }] },
      { rules: { tools: { vm: { arg: 'action', values: { status: 'read', reboot: 'write' }, default: 'write' } } } },
    );
    expect(classify('vm', { action: 'status' })).toBe('read');
    expect(classify('vm', { action: 'reboot' })).toBe('write');
    expect(classify('vm')).toBe('write');
    expect(classify.explain('vm').detail).toContain('by argument "action" (status: read, reboot: write');
  });

  it('should fall back to the generic verbs of the rules for undeclared tools', () => {
    const classify = classifyFromTools([]);
    expect(classify.explain('anything', { action: 'list' })).toMatchObject({ kind: 'read', rule: 'verbs' });
    expect(classify('anything', { action: 'restart' })).toBe('write');
  });
});

describe('classifyFromTools: tool objects with a kind', () => {
  it('should take the kind of a tool object, keyed by name as the AI SDK keeps them', () => {
    const classify = classifyFromTools({
      get_weather: { kind: 'read', description: 'weather', execute: () => 'sunny' },
      book_flight: { kind: 'write' },
      ask_user: { kind: 'user_input' },
    });
    expect(classify.explain('get_weather')).toMatchObject({ kind: 'read', rule: 'kind', detail: 'kind: read' });
    expect(classify('book_flight')).toBe('write');
    expect(classify('ask_user')).toBe('user_input');
  });

  it('should let a declared kind win over annotations, and rules over both', () => {
    const tools = [{ name: 't', kind: 'write', annotations: { readOnlyHint: true } }];
    expect(classifyFromTools(tools)('t')).toBe('write');
    expect(classifyFromTools(tools, { rules: { tools: { t: 'read' } } })('t')).toBe('read');
  });
});

describe('classifyFromTools: the opt-in name-verb preset', () => {
  const names = ['read_file', 'search_docs', 'get_weather', 'list_users', 'describeInstance', 'get_and_delete_user'];

  it('should be off by default: ordinary read names stay writes', () => {
    const classify = classifyFromTools(names.map((name) => ({ name })));
    expect(names.map((n) => classify(n))).toEqual(names.map(() => 'write'));
  });

  it('should make names starting with a read verb reads, unless a word of them is a write word', () => {
    const classify = classifyFromTools(
      names.map((name) => ({ name })),
      { nameVerbs: true },
    );
    expect(names.map((n) => classify(n))).toEqual(['read', 'read', 'read', 'read', 'read', 'write']);
    expect(classify.explain('get_weather')).toMatchObject({
      rule: 'name-verb',
      detail: 'name-verb: starts with "get"',
    });
    expect(classify.explain('get_and_delete_user')).toMatchObject({
      kind: 'write',
      rule: 'name-verb',
      detail: 'name-verb: "delete" is a write word',
    });
  });

  it('should never override annotations or rules', () => {
    const classify = classifyFromTools(
      [{ name: 'get_token', annotations: { readOnlyHint: false } }, { name: 'list_jobs' }],
      { nameVerbs: true, rules: { tools: { list_jobs: 'write' } } },
    );
    expect(classify('get_token')).toBe('write');
    expect(classify('list_jobs')).toBe('write');
  });

  it('should take custom verb lists', () => {
    const classify = classifyFromTools([{ name: 'peek_queue' }, { name: 'get_x' }], {
      nameVerbs: { read: ['peek'], write: [] },
    });
    expect(classify('peek_queue')).toBe('read');
    expect(classify('get_x')).toBe('write');
  });

  it('should split names in snake, kebab, dotted and camel case', () => {
    expect(nameWords('getAndDelete-user.v2')).toEqual(['get', 'and', 'delete', 'user', 'v2']);
    expect(nameWords('listHTTPRoutes')).toEqual(['list', 'http', 'routes']);
  });
});

describe('classifyFromTools: bad input', () => {
  it('should name the bad field of a tool list', () => {
    expect(() => classifyFromTools({ tools: [{ name: 'a' }, { name: 'b', kind: 'reed' }] })).toThrow(
      ToolDeclarationError,
    );
    expect(() => classifyFromTools({ tools: [{ name: 'a' }, { name: 'b', kind: 'reed' }] })).toThrow(
      /tools\[1\]\.kind/,
    );
    expect(() => classifyFromTools({ tools: [{ name: 'a' }, { name: 'a' }] })).toThrow(
      /tools\[1\]\.name: repeats the name of tools\[0\]/,
    );
    expect(() => classifyFromTools({ weather: { kind: 'sometimes' } })).toThrow(/weather\.kind/);
    expect(() => classifyFromTools(42)).toThrow(ToolDeclarationError);
  });

  it('should name the bad path of the rules', () => {
    expect(() => classifyFromTools([], { rules: { tools: { x: 'reed' } } })).toThrow(ClassifierRulesError);
    expect(() => classifyFromTools([], { rules: { tools: { x: 'reed' } } })).toThrow(/tools\.x/);
  });
});

describe('classifyFromTools in a tool loop', () => {
  it('should let an agent with ordinary tool names run discovery, a write and its verification', async () => {
    const tools = {
      list_users: {},
      get_weather: {},
      search_docs: {},
      read_file: {},
      update_user: {},
    };
    const session = createSafetySession();
    const loop = createToolLoop({
      session,
      classify: classifyFromTools(tools, { nameVerbs: true }),
      execute: async (call) => `${call.name} done`,
    });
    loop.startTurn();
    const first = await loop.runBatch([{ id: '1', name: 'list_users', args: {} }]);
    expect(first[0]!.status).toBe('ok');
    const write = await loop.runBatch([{ id: '2', name: 'update_user', args: { id: 7 } }]);
    expect(write[0]!.status).toBe('ok');
    expect(session.state).toBe('VERIFYING');
    await loop.runBatch([{ id: '3', name: 'read_file', args: { path: 'users/7' } }]);
    expect(session.state).toBe('READING');
    expect(loop.finalAnswer()).toEqual({ allowed: true });
  });
});
