import { describe, expect, it } from 'vitest';
import { createAuditClassifier, gateTrace, type AuditTrace } from 'assistant-safety/audit';

/*
 * A rule may declare a write self-verifying: its own result, when it carries `{ verification: { ok:
 * true } }`, verifies it, as the tool loop settles such a call. The audit answers "what would the gate
 * have done", so it settles results the same way; before, it ignored the declaration and reported an
 * UNVERIFIED_WRITE the loop would never have raised.
 */

const rules = {
  tools: {
    get_vm: { kind: 'read' },
    restart_vm: { kind: 'write', selfVerifying: true },
    stop_vm: 'write',
  },
};
const source = { file: 't.jsonl', line: 1 };
const call = (id: string, tool: string, args: unknown = {}) => ({ type: 'call' as const, id, tool, args });
const result = (id: string, value: unknown, ok = true) => ({ type: 'result' as const, id, ok, value });
const blocked = (steps: AuditTrace['steps']) =>
  gateTrace({ id: 't', source, steps }, { classifier: createAuditClassifier({ rules }) })
    .calls.filter((c) => c.blocked)
    .map((c) => `${c.id} ${c.reason}`);

describe('the audit settles a self-verifying write as the tool loop does', () => {
  const evidence = JSON.stringify({ status: 'running', verification: { ok: true } });

  it('should let the next write run when the write’s own result (JSON text) carries the evidence', () => {
    expect(
      blocked([
        call('r1', 'get_vm'),
        result('r1', '{}'),
        call('w1', 'restart_vm'),
        result('w1', evidence),
        call('w2', 'stop_vm'),
      ]),
    ).toEqual([]);
  });

  it('should hold the next write when the result carries no evidence, or says ok: false', () => {
    const base = [call('r1', 'get_vm'), result('r1', '{}'), call('w1', 'restart_vm')];
    expect(blocked([...base, result('w1', 'restarted'), call('w2', 'stop_vm')])).toEqual(['w2 UNVERIFIED_WRITE']);
    expect(blocked([...base, result('w1', { verification: { ok: false } }), call('w2', 'stop_vm')])).toEqual([
      'w2 UNVERIFIED_WRITE',
    ]);
  });

  it('should not take evidence from a tool the rules do not declare self-verifying', () => {
    const steps = [
      call('r1', 'get_vm'),
      result('r1', '{}'),
      call('w1', 'stop_vm'),
      result('w1', evidence),
      call('w2', 'restart_vm'),
    ];
    expect(blocked(steps)).toEqual(['w2 UNVERIFIED_WRITE']);
  });

  it('should not take evidence the call’s own arguments carried (a tool that echoes them)', () => {
    const steps = [
      call('r1', 'get_vm'),
      result('r1', '{}'),
      call('w1', 'restart_vm', { verification: { ok: true } }),
      result('w1', evidence),
      call('w2', 'stop_vm'),
    ];
    expect(blocked(steps)).toEqual(['w2 UNVERIFIED_WRITE']);
  });
});
