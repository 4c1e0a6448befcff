import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSafetySession } from 'assistant-safety';
import { classifyFromTools } from 'assistant-safety/classify';
import { runCli } from '../cli/runCli.js';
import { tempDir } from '../mcp/helpers.js';

/*
 * `classify --call` / `--calls`: each call with the targets the gate would take of it, its flags,
 * and what --targets bind does with a write whose target arguments are missing (docs/classification.md).
 */

function file(name: string, value: unknown) {
  const path = join(tempDir(), name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

const rules = {
  tools: {
    send_money: { kind: 'write', targets: ['recipient'], prefix: 'iban:' },
    post_note: { kind: 'write', targets: ['channel'], prefix: 'chan:', optionalTargets: true },
    create_file: { kind: 'write', creates: true, created: ['path'], prefix: 'file:' },
    fetch_url: { kind: 'read', egress: true, targets: ['url'], prefix: 'url:' },
    read_inbox: { kind: 'read', trust: 'untrusted' },
    list_files: { kind: 'read', discovers: [{ path: 'files.id', prefix: 'file:' }] },
    restart_vms: { kind: 'write', targets: ['vms.id'], prefix: 'vm:' },
  },
};

interface CallRow {
  tool: string;
  kind: string;
  targets?: string[];
  creates?: true;
  created?: string[];
  egress?: true;
  trust?: string;
  optionalTargets?: true;
  missingTargets?: string[];
  discovers?: { path: string; prefix?: string }[];
  arguments?: Record<string, unknown>;
  note?: string;
}

/** The table's row for call `n` (1-based), split into its columns. */
function rowOf(out: string, n: number): string[] {
  const line = out.split('\n').find((l) => l.startsWith(`${n}. `));
  expect(line, `row ${n}`).toBeDefined();
  return line!.split(/ {2,}/);
}

describe('assistant-safety classify --call', () => {
  it('should show the targets each call carries, from its own arguments', async () => {
    const { code, out } = await runCli([
      'classify',
      '--rules',
      file('rules.json', rules),
      '--call',
      'send_money={"recipient":"GB29NWBK60161331926819","amount":5}',
      '--call',
      'restart_vms={"vms":[{"id":101},{"id":102}]}',
      '--call',
      'send_money={"recipient":"GB00OTHER"}',
    ]);
    expect(code).toBe(0);
    expect(out.split('\n')[0]).toMatch(/^CALL\s+KIND\s+TARGETS\s+FLAGS\s+DECIDED BY$/);
    expect(rowOf(out, 1).slice(0, 3)).toEqual(['1. send_money', 'write', 'iban:GB29NWBK60161331926819']);
    expect(rowOf(out, 2).slice(0, 3)).toEqual(['2. restart_vms', 'write', 'vm:101, vm:102']);
    expect(rowOf(out, 3)[2]).toBe('iban:GB00OTHER');
  });

  it('should show the flags: creates, egress, untrusted, optional and what a read discovers', async () => {
    const calls = file('calls.json', [
      { name: 'create_file', arguments: { path: 'notes.md' } },
      { name: 'fetch_url', arguments: { url: 'https://example.test/a' } },
      { name: 'read_inbox' },
      { name: 'post_note', arguments: { channel: 'ops', text: 'hi' } },
      { name: 'list_files', arguments: {} },
    ]);
    const { code, out } = await runCli(['classify', '--rules', file('rules.json', rules), '--calls', calls]);
    expect(code).toBe(0);
    expect(rowOf(out, 1).slice(1, 4)).toEqual(['write', 'file:notes.md', 'creates file:notes.md']);
    expect(rowOf(out, 2).slice(1, 4)).toEqual(['read', 'url:https://example.test/a', 'egress']);
    expect(rowOf(out, 3).slice(1, 4)).toEqual(['read', '-', 'untrusted']);
    expect(rowOf(out, 4).slice(1, 4)).toEqual(['write', 'chan:ops', 'optional']);
    expect(rowOf(out, 5).slice(1, 4)).toEqual(['read', '-', 'discovers files.id as file:…']);
  });

  it('should say what --targets bind does with a write whose target argument is missing, as the gate decides it', async () => {
    const { code, out } = await runCli([
      'classify',
      '--rules',
      file('rules.json', rules),
      '--call',
      'send_money={"amount":5}',
      '--call',
      'post_note={"text":"hi"}',
    ]);
    expect(code).toBe(0);
    expect(rowOf(out, 1)[2]).toMatch(/^\?missing:send_money@[0-9a-f]{16}$/);
    expect(rowOf(out, 2).slice(2, 4)).toEqual(['-', 'optional']);
    const note = out.split('\n').find((l) => l.startsWith('1. send_money: '));
    expect(note).toContain('none of its target arguments (recipient)');

    // The note quotes the gate: a bound session given what the classifier describes, fresh and after a read.
    const classify = classifyFromTools([], { rules });
    const call = { id: 'w', tool: 'send_money', ...classify.describe('send_money', { amount: 5 }) };
    const fresh = createSafetySession({ targets: 'bind' }).beginToolCall(call);
    const later = createSafetySession({ targets: 'bind' });
    later.beginToolCall({ id: 'r', kind: 'read', tool: 'get_balance', targets: ['account:1'] });
    later.endToolCall({ id: 'r', ok: true });
    const afterRead = later.beginToolCall(call);
    expect(fresh).not.toBeNull();
    expect(afterRead).not.toBeNull();
    expect(note).toContain(`${fresh!.reasonCode} before anything is found`);
    expect(note).toContain(`${afterRead!.reasonCode} after a read`);
    // An optional target left out is no block: a write without targets.
    expect(out.split('\n').find((l) => l.startsWith('2. post_note: '))).toContain('a write without targets');
  });

  it('should print the calls in JSON with --format json', async () => {
    const { code, out } = await runCli([
      'classify',
      '--rules',
      file('rules.json', rules),
      '--format',
      'json',
      '--call',
      'send_money={"amount":5}',
      '--call',
      'list_files',
      '--call',
      'fetch_url={"url":"https://example.test"}',
    ]);
    expect(code).toBe(0);
    const { calls } = JSON.parse(out) as { calls: CallRow[] };
    expect(calls[0]).toMatchObject({
      tool: 'send_money',
      kind: 'write',
      targets: [expect.stringMatching(/^\?missing:send_money@[0-9a-f]{16}$/)],
      missingTargets: ['recipient'],
      arguments: { amount: 5 },
    });
    expect(calls[0]!.note).toMatch(/^the call gives none of its target arguments/);
    expect(calls[1]).toMatchObject({ tool: 'list_files', discovers: [{ path: 'files.id', prefix: 'file:' }] });
    expect(calls[1]!.arguments).toBeUndefined();
    expect(calls[2]).toMatchObject({ egress: true, targets: ['url:https://example.test'] });
    expect(calls[2]!.missingTargets).toBeUndefined();
  });

  it('should classify the calls by the tool list too: an open-world read is untrusted', async () => {
    const list = file('tools.json', {
      tools: [{ name: 'search_web', annotations: { readOnlyHint: true, openWorldHint: true } }],
    });
    const { code, out } = await runCli(['classify', list, '--call', 'search_web={"q":"x"}']);
    expect(code).toBe(0);
    expect(out).toMatch(/^search_web\s+read\s+annotations/m); // the tool table still comes first
    expect(rowOf(out, 1).slice(1, 4)).toEqual(['read', '-', 'untrusted']);
  });

  it('should refuse bad calls with one line naming what is wrong, exit code 2', async () => {
    const notObject = await runCli(['classify', '--call', 'send_money=[1]']);
    expect(notObject.code).toBe(2);
    expect(notObject.err.split('\n')[0]).toContain('--call send_money: the arguments must be a JSON object, got [1]');
    const torn = await runCli(['classify', '--call', 'send_money={"a":']);
    expect(torn.code).toBe(2);
    expect(torn.err).toContain('--call send_money: the arguments are not JSON');
    const badFile = await runCli(['classify', '--calls', file('calls.json', [{ name: 'ok' }, { arguments: {} }])]);
    expect(badFile.code).toBe(2);
    expect(badFile.err).toBe(
      `classify: --calls ${badFile.err.split(' ')[2]} expected [{ "name", "arguments"? }]: calls[1].name: expected a non-empty tool name`,
    );
    const nothing = await runCli(['classify', '--rules', file('rules.json', rules)]);
    expect(nothing.code).toBe(2);
    // A misspelt key is refused, not read as a call without arguments.
    const misspelt = await runCli(['classify', '--calls', file('calls.json', [{ name: 'send_money', args: {} }])]);
    expect(misspelt.code).toBe(2);
    expect(misspelt.err).toContain('calls[0]: Unrecognized key: "args"');
    const notJson = await runCli(['classify', '--calls', file('calls.json', 'nope\n')]);
    expect(notJson.code).toBe(2);
    expect(notJson.err.trimEnd().split('\n')).toHaveLength(1);
    const none = await runCli(['classify', '--calls', file('calls.json', [])]);
    expect(none.code).toBe(2);
    expect(none.err).toContain('calls: expected at least one call');
  });

  it('should say of a tool nothing names that the gateway takes it as a write, and guess the one meant', async () => {
    const { code, out } = await runCli([
      'classify',
      '--rules',
      file('rules.json', rules),
      '--call',
      'sned_money={"recipient":"GB29"}',
    ]);
    expect(code).toBe(0);
    expect(out.split('\n').find((l) => l.startsWith('1. sned_money: '))).toBe(
      '1. sned_money: no rule names "sned_money" and no tool list declares it: the gateway takes it as a write with no targets (fail closed); did you mean send_money?',
    );
  });
});
