import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClassifier } from 'assistant-safety';
import { main } from '../../src/cli/main.js';
import { tempDir } from './helpers.js';

/* A bad rules file names the path inside it, the value found and the values allowed: in the gateway, classify and the library. */

async function run(args: string[]) {
  let err = '';
  const code = await main(args, { out: () => undefined, err: (t) => (err += `${t}\n`) });
  return { code, err };
}

const CASES: Array<[unknown, string]> = [
  [
    { tools: { lookup_host: 'reed' } },
    'tools.lookup_host: expected a tool kind (one of resolve, read, write, user_input), a rule { kind, targets?, prefix?, trust?, stateOnly?, selfVerifying?, discovers?, creates?, created?, egress?, optionalTargets? } or an argument rule { arg, values, default }, got "reed"',
  ],
  [
    { tools: { vm: { arg: 'action', values: { status: 'reed' }, default: 'write' } } },
    'tools.vm.values.status: expected a tool kind (one of resolve, read, write, user_input), got "reed"',
  ],
  [
    { tools: { vm: { kind: 'write', target: ['vm_id'] } } },
    'tools.vm: Unrecognized key: "target" (did you mean targets?): not a rule field (allowed: kind, arg, values, default, missing, targets, prefix, optionalTargets, trust, stateOnly, selfVerifying, discovers, creates, created, egress)',
  ],
];

describe('a rules file with a mistake', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'tools.json'), JSON.stringify({ tools: [{ name: 'lookup_host' }] }));

  it.each(CASES)('should name the path, the value found and the allowed values: %j', async (rules, message) => {
    const file = join(dir, 'rules.json');
    writeFileSync(file, JSON.stringify(rules));
    const gateway = await run(['mcp-gateway', '--rules', file, '--', 'never-started']);
    expect(gateway.code).toBe(2);
    expect(gateway.err).toContain(`mcp-gateway: --rules ${file}: invalid classifier rules: ${message}`);
    const classify = await run(['classify', join(dir, 'tools.json'), '--rules', file]);
    expect(classify.code).toBe(2);
    expect(classify.err).toContain(message);
    expect(() => createClassifier(rules)).toThrow(message);
  });
});
