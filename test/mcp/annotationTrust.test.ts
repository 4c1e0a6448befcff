import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createMcpGateway, type AnnotationTrust } from 'assistant-safety/mcp';
import { main } from '../../src/cli/main.js';
import { tempDir } from './helpers.js';

/*
 * --trust-annotations, as `classify` and the gateway apply it to one fixture tool list:
 * all (the default) believes the annotations; destructive-only ignores readOnlyHint: true
 * (only annotations that make a tool stricter count); none ignores them all, so only rules
 * make a tool anything but a write, and `classify --check` names the tools without a rule.
 */

const TOOLS = {
  tools: [
    { name: 'read_file', annotations: { readOnlyHint: true } },
    { name: 'get_config', annotations: { readOnlyHint: false } },
    { name: 'list_things', annotations: { readOnlyHint: true, destructiveHint: true } },
    { name: 'lookup_host' },
    { name: 'write_file', annotations: { readOnlyHint: false, destructiveHint: true } },
  ],
};

async function run(args: string[]) {
  let out = '';
  let err = '';
  const code = await main(args, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

async function kinds(dir: string, ...options: string[]) {
  const { code, out, err } = await run(['classify', join(dir, 'tools.json'), '--format', 'json', ...options]);
  expect(code, err).toBe(0);
  const { tools } = JSON.parse(out) as { tools: Array<{ tool: string; kind: string }> };
  return Object.fromEntries(tools.map((t) => [t.tool, t.kind]));
}

describe('--trust-annotations', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'tools.json'), JSON.stringify(TOOLS));
  writeFileSync(join(dir, 'rules.json'), JSON.stringify({ tools: { lookup_host: 'read', read_file: 'read' } }));

  it('all (the default): readOnlyHint: true is a read, anything else a write', async () => {
    const expected = {
      read_file: 'read',
      get_config: 'write',
      list_things: 'read',
      lookup_host: 'write',
      write_file: 'write',
    };
    expect(await kinds(dir)).toEqual(expected);
    expect(await kinds(dir, '--trust-annotations', 'all')).toEqual(expected);
  });

  it('destructive-only: readOnlyHint: true is not believed; annotations that say write still count', async () => {
    expect(await kinds(dir, '--trust-annotations', 'destructive-only')).toEqual({
      read_file: 'write',
      get_config: 'write',
      list_things: 'write',
      lookup_host: 'write',
      write_file: 'write',
    });
    // With the opt-in name verbs, a tool that declares it writes stays a write; one that claims to read is judged by its name.
    expect(await kinds(dir, '--trust-annotations', 'destructive-only', '--name-verbs')).toEqual({
      read_file: 'read',
      get_config: 'write',
      list_things: 'write',
      lookup_host: 'read',
      write_file: 'write',
    });
  });

  it('none: only rules decide, and classify --check names every tool without a rules entry', async () => {
    expect(await kinds(dir, '--trust-annotations', 'none', '--rules', join(dir, 'rules.json'))).toEqual({
      read_file: 'read',
      get_config: 'write',
      list_things: 'write',
      lookup_host: 'read',
      write_file: 'write',
    });
    const checked = await run([
      'classify',
      join(dir, 'tools.json'),
      '--trust-annotations',
      'none',
      '--rules',
      join(dir, 'rules.json'),
      '--check',
    ]);
    expect(checked.code).toBe(1);
    expect(checked.err).toContain(
      '3 tools have no rules entry, so they are classified write: get_config, list_things, write_file',
    );
    const all = JSON.stringify({ tools: Object.fromEntries(TOOLS.tools.map((t) => [t.name, 'read'])) });
    writeFileSync(join(dir, 'every-rule.json'), all);
    const complete = await run([
      'classify',
      join(dir, 'tools.json'),
      '--trust-annotations',
      'none',
      '--rules',
      join(dir, 'every-rule.json'),
      '--check',
    ]);
    expect(complete.code, complete.err).toBe(0);
  });

  it('should refuse a mode it does not know, naming the allowed ones', async () => {
    const { code, err } = await run(['classify', join(dir, 'tools.json'), '--trust-annotations', 'some']);
    expect(code).toBe(2);
    expect(err).toContain('--trust-annotations: expected one of all, destructive-only, none, got "some"');
  });
});

describe('--trust-annotations in the gateway', () => {
  it.each([
    ['all', { read_file: 'read', write_file: 'write', lookup_host: 'read' }],
    ['destructive-only', { read_file: 'write', write_file: 'write', lookup_host: 'read' }],
    ['none', { read_file: 'write', write_file: 'write', lookup_host: 'read' }],
  ] as const)("%s: classifies the server's tools as the classify command does", async (trust, expected) => {
    const server = new McpServer({ name: 'trust', version: '1.0.0' });
    for (const tool of TOOLS.tools)
      server.registerTool(tool.name, { ...(tool.annotations && { annotations: tool.annotations }) }, async () => ({
        content: [{ type: 'text', text: 'ok' }],
      }));
    const [serverSide, downstream] = InMemoryTransport.createLinkedPair();
    const [upstream, clientSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const logs: string[] = [];
    const gateway = createMcpGateway({
      upstream,
      downstream,
      rules: { tools: { lookup_host: 'read' } },
      trustAnnotations: trust as AnnotationTrust,
      log: (l) => logs.push(l),
    });
    await gateway.start();
    const client = new Client({ name: 'trust-test', version: '1.0.0' });
    await client.connect(clientSide);
    await client.callTool({ name: 'lookup_host', arguments: {} });
    expect(Object.fromEntries(Object.keys(expected).map((t) => [t, gateway.explain(t).kind]))).toEqual(expected);
    const missing = logs.filter((l) => l.includes('has no rules entry'));
    expect(missing).toHaveLength(trust === 'none' ? 4 : 0);
    await client.close();
  });
});
