import { describe, expect, it } from 'vitest';
import { createToolCatalogue } from '../../src/mcp/toolCatalogue.js';

/*
 * A rules file that names a tool the server does not list, or binds targets from an argument the
 * tool's input schema does not have, is most likely a typo: the gateway says so once, when it first
 * lists the server's tools. Before, the misspelt tool was judged by other rules and a misspelt target
 * argument showed only as writes blocked for an unvalidated target.
 */
const TOOLS = [
  { name: 'list_files', inputSchema: { type: 'object', properties: { folder: { type: 'string' } } } },
  { name: 'delete_file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
];

async function logsFor(rules: unknown, tools: unknown[] = TOOLS, bindsTargets?: boolean): Promise<string[]> {
  const lines: string[] = [];
  const catalogue = createToolCatalogue({
    rules,
    trust: 'all',
    log: (line) => lines.push(line),
    listPage: async () => ({ jsonrpc: '2.0', id: 1, result: { tools } }),
    stopped: () => false,
    ...(bindsTargets !== undefined && { bindsTargets: () => bindsTargets }),
  });
  await catalogue.fetchTools();
  await catalogue.fetchTools(); // said once, not at every listing
  return lines;
}

describe('rules checked against the tools the server lists', () => {
  it('should name a tool the server does not list, and a target argument the tool does not have', async () => {
    expect(
      await logsFor({
        tools: {
          lst_files: 'resolve',
          delete_file: { kind: 'write', targets: ['pth'], prefix: 'file:' },
        },
      }),
    ).toEqual([
      'the rules name tool lst_files, which the server does not list (did you mean list_files?)',
      'the rules for delete_file bind targets from pth, an argument its input schema does not have (did you mean path?) (it has path)',
    ]);
  });

  it('should say nothing of rules that match the server', async () => {
    expect(
      await logsFor({
        tools: { list_files: 'resolve', delete_file: { kind: 'write', targets: ['path'], prefix: 'file:' } },
      }),
    ).toEqual([]);
  });

  it('should name, with target binding, the writes whose rules bind no targets, and only then', async () => {
    const tools = [
      ...TOOLS,
      { name: 'write_file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
      { name: 'stat_file', annotations: { readOnlyHint: true } },
    ];
    const rules = {
      tools: { list_files: 'resolve', delete_file: { kind: 'write', targets: ['path'], prefix: 'file:' } },
    };
    expect(await logsFor(rules, tools, true)).toEqual([
      '--targets bind: the rules name no target arguments ("targets") of write_file: binding checks nothing of this write, which is gated as a write without targets',
    ]);
    expect(await logsFor(rules, tools, false)).toEqual([]);
    // No rule names targets at all: the command line has said so at start, once.
    expect(await logsFor({ tools: { list_files: 'resolve' } }, tools, true)).toEqual([]);
  });
});
