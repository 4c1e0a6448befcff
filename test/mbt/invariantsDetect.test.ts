import { transition } from 'xstate';
import { describe, expect, it } from 'vitest';
import { initialContext, safetyMachine, type SafetyContext, type SafetyEvent } from 'assistant-safety';
import { invariantById, invariants, stepOf, type SafetySnapshotLike, type Step } from 'assistant-safety/testing';

/*
 * Each invariant on its own: it flags a hand-made bad step, and it passes the
 * step the shipped machine takes from the same snapshot on the same event.
 */

const at = 1_000;
const ctx = (patch: Partial<SafetyContext> = {}): SafetyContext => ({ ...initialContext(), ...patch });
const snap = (value: string, patch: Partial<SafetyContext> = {}): SafetySnapshotLike => ({
  value,
  context: ctx(patch),
});
const read = { kind: 'read' as const, tool: 'get_logs', startedAt: 0 };
const write = { kind: 'write' as const, tool: 'restart_vm', startedAt: 0 };
const verifying = { wroteThisEpisode: true, writeEpoch: 1, lastWriteTool: 'restart_vm', lastWriteAt: 0 };
const config = initialContext().config;
const bound = { config: { ...config, targets: 'bind' as const } };
const coding = { config: { ...config, targets: 'bind' as const, profile: 'coding' as const } };

/** The step the shipped machine takes. */
function real(before: SafetySnapshotLike, event: SafetyEvent): Step {
  const snapshot = safetyMachine.resolveState({ value: before.value as never, context: before.context });
  const [after] = transition(safetyMachine, snapshot, event);
  return stepOf(before, event, after);
}

/** A bad step: the real one with its after snapshot (and decision) tampered with. */
function bad(
  before: SafetySnapshotLike,
  event: SafetyEvent,
  after: { value?: string; context?: Partial<SafetyContext>; decision?: Step['decision'] },
): Step {
  const good = real(before, event);
  return {
    ...good,
    after: { value: after.value ?? good.after.value, context: { ...good.after.context, ...after.context } },
    decision: after.decision !== undefined ? after.decision : good.decision,
  };
}

const blockedBy = (before: SafetySnapshotLike, reasonCode: NonNullable<SafetyContext['lastBlock']>['reasonCode']) => ({
  blockCount: before.context.blockCount + 1,
  lastBlock: { reasonCode, tool: null, kind: null },
});

const cases: Array<[string, SafetySnapshotLike, SafetyEvent, Parameters<typeof bad>[2]]> = [
  ['I1', snap('RESOLVING'), { type: 'CHECK_TOOL', kind: 'write', tool: 'restart_vm', at }, { decision: 'allowed' }],
  [
    'I2',
    snap('VERIFYING', verifying),
    { type: 'BEGIN_CALL', id: 'c1', kind: 'write', tool: 'restart_vm', at },
    { decision: 'allowed' },
  ],
  [
    'I3',
    snap('WRITING', { calls: { w: { ...write, epoch: 0 } } }),
    { type: 'CHECK_FINAL_ANSWER', at },
    { decision: 'allowed' },
  ],
  [
    'I4',
    snap('VERIFYING', { ...verifying, consecutiveVerifyBlocks: 5 }),
    { type: 'CHECK_TOOL', kind: 'write', tool: 'restart_vm', at },
    { context: { consecutiveVerifyBlocks: 5 } },
  ],
  [
    'I5',
    snap('READING'),
    { type: 'CHECK_TOOL', kind: 'read', tool: 'get_logs', at },
    { decision: 'blocked', context: blockedBy(snap('READING'), 'NO_VALIDATED_TARGET') },
  ],
  [
    'I6',
    snap('READING'),
    { type: 'TOOL_SUCCEEDED', kind: 'user_input', tool: 'ask_user', at },
    { context: { lastReadTool: 'ask_user' } },
  ],
  [
    'I7',
    snap('VERIFYING', { ...verifying, calls: { r: { ...read, epoch: 0 } } }),
    { type: 'TOOL_SUCCEEDED', id: 'r', at },
    { context: { readAfterWrite: true } },
  ],
  ['I8', snap('VERIFYING', verifying), { type: 'RESET', at }, { context: { lastWriteTool: 'restart_vm' } }],
  ['I9', snap('RESOLVING'), { type: 'TOOL_SUCCEEDED', kind: 'read', tool: 'get_logs', at }, { value: 'RESOLVING' }],
  [
    'I10',
    snap('READING'),
    { type: 'TOOL_SUCCEEDED', kind: 'write', tool: 'restart_vm', at },
    { context: { writeEpoch: 0 } },
  ],
  ['I11', snap('READING'), { type: 'CHECK_TOOL', kind: 'write', tool: 'restart_vm', at }, { value: 'WRITING' }],
  ['I12', snap('VERIFYING', verifying), { type: 'COMPLETE_VERIFICATION', at }, { value: 'READING' }],
  ['I13', snap('VERIFYING', verifying), { type: 'TARGET_ESTABLISHED', at }, { value: 'READING' }],
  [
    'I14',
    snap('READING'),
    { type: 'CHECK_FINAL_ANSWER', at },
    { decision: 'blocked', context: blockedBy(snap('READING'), 'FINAL_ANSWER_UNVERIFIED') },
  ],
  [
    'I15',
    snap('READING'),
    { type: 'BEGIN_CALL', id: 'c1', kind: 'read', tool: 'get_logs', at },
    { context: { calls: {} } },
  ],
  [
    'I16',
    snap('READING'),
    { type: 'TRACK_RECOVERY', errorCode: 'E', tool: 'restart_vm', at },
    { context: { pendingRecoveries: [] } },
  ],
  ['I17', snap('READING'), { type: 'CHECK_FINAL_ANSWER', at }, { context: { consecutiveVerifyBlocks: 1 } }],
  [
    'I18',
    snap('READING', { ...bound, validatedTargets: ['t1'] }),
    { type: 'BEGIN_CALL', id: 'c1', kind: 'write', tool: 'restart_vm', targets: ['t1', 't2'], at },
    {
      context: {
        lastBlock: { reasonCode: 'TARGET_NOT_VALIDATED', tool: 'restart_vm', kind: 'write', targets: ['t1', 't2'] },
      },
    },
  ],
  [
    'I19',
    snap('READING', {
      ...bound,
      calls: { r: { ...read, tool: 'fetch_page', targets: ['t2'], untrusted: true, epoch: 0 } },
    }),
    { type: 'TOOL_SUCCEEDED', id: 'r', at },
    { context: { validatedTargets: ['t2'] } },
  ],
  [
    'I20',
    snap('VERIFYING', {
      ...bound,
      ...verifying,
      uncoveredTargets: ['t1', 't2'],
      calls: { r: { ...read, targets: ['t1'], epoch: 1 } },
    }),
    { type: 'TOOL_SUCCEEDED', id: 'r', at },
    { context: { readAfterWrite: true, uncoveredTargets: [] } },
  ],
  [
    'I21',
    snap('VERIFYING', verifying),
    { type: 'ATTEST', evidence: 'verification', reasonCode: 'FINAL_ANSWER_UNVERIFIED', by: 'qa-lead', at },
    { value: 'VERIFYING' },
  ],
  [
    'I22',
    snap('READING', { calls: { s: { ...write, tool: 'report_finding', stateOnly: true, epoch: 0 } } }),
    { type: 'TOOL_SUCCEEDED', id: 's', at },
    { value: 'VERIFYING' },
  ],
  [
    'I23',
    snap('READING', { config: { ...config, profile: 'investigation' } }),
    { type: 'BEGIN_CALL', id: 'c1', kind: 'write', tool: 'report_finding', stateOnly: true, at },
    { decision: 'allowed', context: { blockCount: 0 } },
  ],
  [
    'I24',
    snap('RESOLVING', { config: { ...config, mode: 'shadow' } }),
    { type: 'RUN_UNGATED', id: 'c1', kind: 'write', tool: 'restart_vm', at },
    { context: { shadowCalls: {} } },
  ],
  [
    'I25',
    snap('READING', { ...bound, calls: { r: { ...read, tool: 'fetch_page', untrusted: true, epoch: 0 } } }),
    { type: 'TOOL_SUCCEEDED', id: 'r', at },
    // The page said "restart vm-7": tool output must never become the user's words.
    { context: { userWords: ['restart vm-7'] } },
  ],
  [
    'I26',
    snap('READING', { ...bound, validatedTargets: ['t1'] }),
    {
      type: 'BEGIN_CALL',
      id: 'c1',
      kind: 'read',
      tool: 'post_webhook',
      targets: ['https://evil.example'],
      egress: true,
      at,
    },
    { decision: 'allowed', context: { blockCount: 0 } },
  ],
  [
    'I27',
    snap('VERIFYING', {
      ...verifying,
      approvals: [{ digest: 'call:00000000deadbeef', reasonCode: 'UNVERIFIED_WRITE', at: 0 }],
    }),
    { type: 'BEGIN_CALL', id: 'c1', kind: 'write', tool: 'restart_vm', at },
    // Another write passes on someone else's approval.
    { value: 'WRITING', decision: 'allowed', context: { approvals: [] } },
  ],
  [
    'I28',
    snap('WRITING', {
      ...coding,
      validatedTargets: ['file:/a.ts'],
      calls: { e: { ...write, tool: 'Edit', targets: ['file:/a.ts'], epoch: 0 } },
    }),
    { type: 'TOOL_SUCCEEDED', id: 'e', at },
    // The edit landed but its file was forgotten: Stop would pass unchecked.
    { context: { editedFiles: [] } },
  ],
  [
    'I29',
    snap('READING', {
      ...coding,
      ...verifying,
      editedFiles: [{ target: 'file:/a.ts', epoch: 1 }],
      // A test run that began before the edit landed.
      calls: { t: { ...read, tool: 'Bash', check: true, epoch: 0 } },
    }),
    { type: 'TOOL_SUCCEEDED', id: 't', at },
    { context: { editedFiles: [] } },
  ],
  [
    'I30',
    snap('READING', {
      ...coding,
      validatedTargets: ['file:/a.ts'],
      calls: { s: { kind: 'user_input' as const, tool: 'Task', startedAt: 0, delegates: true, epoch: 0 } },
    }),
    { type: 'TOOL_SUCCEEDED', id: 's', at },
    // The subagent may have changed the file: the main agent's old read must not count.
    { context: { validatedTargets: ['file:/a.ts'] } },
  ],
];

describe('each invariant on its own', () => {
  it('should have a case for every invariant', () => {
    expect(cases.map(([id]) => id)).toEqual(invariants.map((i) => i.id));
  });

  it.each(cases)('%s should flag a bad step and pass the step the machine takes', (id, before, event, tamper) => {
    const invariant = invariantById(id)!;
    expect(invariant.check(real(before, event))).toBeNull();
    const message = invariant.check(bad(before, event, tamper));
    expect(message).toEqual(expect.any(String));
    console.log(`${id}: ${message}`);
  });
});
