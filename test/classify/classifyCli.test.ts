import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { FIXTURE, tempDir, TSX } from '../mcp/helpers.js';

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

function file(name: string, value: unknown) {
  const path = join(tempDir(), name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

const toolList = {
  tools: [
    { name: 'list_allowed_directories', annotations: { readOnlyHint: true } },
    { name: 'write_file', annotations: { readOnlyHint: false, destructiveHint: true } },
    { name: 'get_weather' },
  ],
};

describe('assistant-safety classify', () => {
  it('should print each tool with its kind and the rule that decided it', async () => {
    const { code, out } = await run('classify', file('tools.json', toolList));
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^TOOL\s+KIND\s+DECIDED BY$/);
    expect(lines[1]).toMatch(/^list_allowed_directories\s+read\s+annotations: readOnlyHint true$/);
    expect(lines[2]).toMatch(/^write_file\s+write\s+annotations: readOnlyHint false, destructiveHint true$/);
    expect(lines[3]).toMatch(/^get_weather\s+write\s+default: /);
    expect(out).toContain('3 tools: 1 resolve or read, 2 write');
  });

  it('should let rules and the opt-in name verbs decide, and print JSON with --format json', async () => {
    const rules = file('rules.json', { tools: { list_allowed_directories: 'resolve' } });
    const { code, out } = await run(
      'classify',
      file('tools.json', toolList),
      '--rules',
      rules,
      '--name-verbs',
      '--format',
      'json',
    );
    expect(code).toBe(0);
    const json = JSON.parse(out) as { tools: Array<{ tool: string; kind: string; rule: string }> };
    expect(json.tools.map((t) => [t.tool, t.kind, t.rule])).toEqual([
      ['list_allowed_directories', 'resolve', 'rules'],
      ['write_file', 'write', 'annotations'],
      ['get_weather', 'read', 'name-verb'],
    ]);
  });

  it('should exit 1 with --check when no tool is a resolve or read, and 0 when one is', async () => {
    const allWrites = file('writes.json', { tools: [{ name: 'read_file' }, { name: 'search_docs' }] });
    const failed = await run('classify', allWrites, '--check');
    expect(failed.code).toBe(1);
    expect(failed.err).toContain('no tool is a resolve or read');
    expect((await run('classify', allWrites, '--check', '--name-verbs')).code).toBe(0);
    expect((await run('classify', file('tools.json', toolList), '--check')).code).toBe(0);
  });

  it('should refuse a malformed tool list or rules file, naming the path, with exit code 2', async () => {
    const bad = await run('classify', file('bad.json', { tools: [{ name: 'x', kind: 'sometimes' }] }));
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('tools[0].kind');
    const badRules = await run(
      'classify',
      file('tools.json', toolList),
      '--rules',
      file('r.json', { tools: { x: 1 } }),
    );
    expect(badRules.code).toBe(2);
    expect(badRules.err).toContain('tools.x');
    expect((await run('classify', file('torn.json', '{"tools": ['))).code).toBe(2);
    expect((await run('classify')).code).toBe(2);
  });

  it("should classify the MCP fixture server's own tool list", async () => {
    const { code, out } = await run('classify', '--check', '--', process.execPath, '--import', TSX, FIXTURE);
    expect(code).toBe(0);
    const kinds = Object.fromEntries(
      out
        .split('\n')
        .slice(1)
        .filter((l) => /^\w+\s+(read|write)\s/.test(l))
        .map((l) => l.split(/\s+/).slice(0, 2)),
    );
    expect(kinds).toEqual({
      find_service: 'read',
      get_status: 'read',
      restart_service: 'write',
      lookup_host: 'write',
      explode: 'read',
      slow_read: 'read',
      slow_write: 'write',
      stubborn_write: 'write',
      flood: 'read',
      huge: 'read',
    });
  }, 60_000);
});
