import { describe, expect, it } from 'vitest';
import { ClassifierRulesError, createClassifier, createSafetySession } from 'assistant-safety';
import { classifyFromTools } from 'assistant-safety/classify';

const rules = {
  tools: {
    send_money: { kind: 'write', targets: ['recipient'], prefix: 'iban:' },
    get_balance: { kind: 'read', targets: ['account'], prefix: 'iban:' },
    restart_vms: { kind: 'write', targets: ['vms.id'], prefix: 'vm:' },
    vm: {
      arg: 'action',
      values: { status: 'read', reboot: 'write' },
      default: 'write',
      targets: ['id'],
      prefix: 'vm:',
    },
    read_inbox: { kind: 'read', trust: 'untrusted' },
    report_finding: { kind: 'write', stateOnly: true },
    apply_config: { kind: 'write', selfVerifying: true },
  },
} as const;

describe('targets from classifier rules', () => {
  const classify = createClassifier(rules);

  it('should find targets at argument paths, with the prefix, arrays expanded', () => {
    expect(classify('send_money', { recipient: 'GB29NWBK', amount: 5 })).toBe('write');
    expect(classify.describe('send_money', { recipient: 'GB29NWBK' })).toEqual({
      kind: 'write',
      targets: ['iban:GB29NWBK'],
    });
    expect(classify.describe('restart_vms', { vms: [{ id: 1 }, { id: 'b' }, { id: 1 }] }).targets).toEqual([
      'vm:1',
      'vm:b',
    ]);
    expect(classify.describe('vm', { action: 'status', id: 7 })).toEqual({ kind: 'read', targets: ['vm:7'] });
  });

  it('should report the targets with the rule that found them', () => {
    const why = classify.explain('send_money', { recipient: 'GB29NWBK' });
    expect(why.rule).toBe('rules');
    expect(why.targets).toEqual(['iban:GB29NWBK']);
    expect(why.detail).toContain('targets from recipient: iban:GB29NWBK');
  });

  it('should fail closed for a write whose target arguments are missing or unreadable', () => {
    const missing = classify.describe('send_money', { amount: 5 }).targets;
    expect(missing).toEqual([expect.stringMatching(/^\?missing:send_money@[0-9a-f]{16}$/)]);
    const hostile = new Proxy(
      {},
      {
        getOwnPropertyDescriptor: () => {
          throw new Error('no');
        },
      },
    );
    expect(classify.describe('send_money', hostile).kind).toBe('write');
    expect(classify.describe('get_balance', {}).targets).toBeUndefined();
  });

  it('should fail closed for an egress read that names no destination, and block it under binding', () => {
    const egress = createClassifier({
      tools: {
        fetch_url: { kind: 'read', egress: true, targets: ['url'], prefix: 'url:' },
        fetch_maybe: { kind: 'read', egress: true, targets: ['url'], prefix: 'url:', optionalTargets: true },
      },
    });
    // The destination may sit in an argument the rule does not name (`link`): it cannot pass unchecked.
    const described = egress.describe('fetch_url', { link: 'https://evil.test/?d=1' });
    expect(described.targets).toEqual([expect.stringMatching(/^\?missing:fetch_url@[0-9a-f]{16}$/)]);
    const s = createSafetySession({ targets: 'bind' });
    expect(s.beginToolCall({ id: 'e1', tool: 'fetch_url', ...described })?.reasonCode).toBe('EGRESS_NOT_VALIDATED');
    // Unless the rule makes the destination optional.
    expect(egress.describe('fetch_maybe', {}).targets).toBeUndefined();
  });

  it('should carry trust, state-only and self-verifying facts', () => {
    expect(classify.describe('read_inbox')).toEqual({ kind: 'read', trust: 'untrusted' });
    expect(classify.describe('report_finding')).toEqual({ kind: 'write', stateOnly: true });
    expect(classify.describe('apply_config')).toEqual({ kind: 'write', selfVerifying: true });
    expect(classify.describe('unknown_tool')).toEqual({ kind: 'write' });
  });

  it('should take an own property only, never an inherited one', () => {
    const args = Object.create({ recipient: 'ATTACKER' }) as object;
    expect(classify.describe('send_money', args).targets).toEqual([
      expect.stringMatching(/^\?missing:send_money@[0-9a-f]{16}$/),
    ]);
  });

  it('should refuse a rule for a tool named __proto__ with a clear error', () => {
    const bad = JSON.parse('{"tools":{"__proto__":"read"}}');
    expect(() => createClassifier(bad)).toThrow(ClassifierRulesError);
    expect(() => createClassifier(bad)).toThrow(/__proto__/);
  });

  it('should name the allowed values of a bad rule field', () => {
    expect(() => createClassifier({ tools: { t: { kind: 'write', trust: 'maybe' } } })).toThrow(
      /tools\.t\.trust: expected one of "trusted", "untrusted", got "maybe"/,
    );
    expect(() => createClassifier({ tools: { t: { kind: 'write', target: ['x'] } } })).toThrow(/allowed: kind, arg/);
  });

  it('should pass rules targets through classifyFromTools, and mark open-world tools untrusted', () => {
    const c = classifyFromTools(
      { tools: [{ name: 'fetch', annotations: { readOnlyHint: true, openWorldHint: true } }] },
      { rules },
    );
    expect(c.describe('fetch')).toEqual({ kind: 'read', trust: 'untrusted' });
    expect(c.explain('send_money', { recipient: 'X' }).targets).toEqual(['iban:X']);
  });
});
