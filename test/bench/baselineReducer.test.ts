import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { initialReducerState, reduce, type ReducerEvent, type ReducerState } from '../../bench/baselineReducer.js';
import { createSafetySession } from '../../src/safety/SafetySession.js';
import type { SafetySession } from '../../src/safety/SafetySessionTypes.js';

/*
 * The gate benchmark's ratio is only meaningful if its yardstick does what the
 * session does. These runs put the same random calls through both and compare
 * every decision and the state after it.
 */

type Kind = 'resolve' | 'read' | 'write' | 'user_input';
const kind = fc.constantFrom<Kind>('resolve', 'read', 'write', 'user_input');
const tool = fc.constantFrom('find_vm', 'status', 'restart_vm', 'stop_vm', 'ask');
const id = fc.constantFrom('c1', 'c2', 'c3');

type Op =
  | { op: 'begin'; id: string; kind: Kind; tool: string }
  | { op: 'end'; id: string; ok: boolean; verified?: boolean }
  | { op: 'check'; kind: Kind; tool: string }
  | { op: 'success'; kind: Kind; tool: string }
  | { op: 'final' }
  | { op: 'complete' }
  | { op: 'wait'; ms: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('begin' as const), id, kind, tool }) },
  {
    weight: 4,
    arbitrary: fc.record(
      { op: fc.constant('end' as const), id, ok: fc.boolean(), verified: fc.boolean() },
      { requiredKeys: ['op', 'id', 'ok'] },
    ),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('check' as const), kind, tool }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('success' as const), kind, tool }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('final' as const) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('complete' as const) }) },
  // Now and then past a recovery's ten-minute lifetime.
  { weight: 1, arbitrary: fc.record({ op: fc.constant('wait' as const), ms: fc.constantFrom(1_000, 700_000) }) },
);

function inFlight(calls: Record<string, { kind: string; tool: string; epoch: number; startedAt: number }>) {
  return Object.entries(calls)
    .map(([k, c]) => `${k}:${c.kind}:${c.tool}:${c.epoch}:${c.startedAt}`)
    .sort();
}

function observed(s: SafetySession) {
  const c = s.context;
  return {
    state: s.state,
    wroteThisEpisode: c.wroteThisEpisode,
    readAfterWrite: c.readAfterWrite,
    consecutiveVerifyBlocks: c.consecutiveVerifyBlocks,
    lastWriteTool: c.lastWriteTool,
    lastWriteAt: c.lastWriteAt,
    lastReadTool: c.lastReadTool,
    lastReadAt: c.lastReadAt,
    writeEpoch: c.writeEpoch,
    calls: inFlight(c.calls),
    recoveries: c.pendingRecoveries.map((r) => ({ ...r })),
  };
}

function expected(r: ReducerState) {
  return {
    state: r.state,
    wroteThisEpisode: r.wroteThisEpisode,
    readAfterWrite: r.readAfterWrite,
    consecutiveVerifyBlocks: r.consecutiveVerifyBlocks,
    lastWriteTool: r.lastWriteTool,
    lastWriteAt: r.lastWriteAt,
    lastReadTool: r.lastReadTool,
    lastReadAt: r.lastReadAt,
    writeEpoch: r.writeEpoch,
    calls: inFlight(r.calls),
    recoveries: r.pendingRecoveries.map((x) => ({ ...x })),
  };
}

describe('the gate benchmark baseline reducer', () => {
  it('should make the same decisions and reach the same state as SafetySession on any call sequence', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 80 }), (ops) => {
        let now = 1_000;
        const session = createSafetySession({ now: () => now });
        let r = initialReducerState;
        for (const op of ops) {
          now += 1;
          let decision: unknown = 'none';
          let event: ReducerEvent | undefined;
          switch (op.op) {
            case 'wait':
              now += op.ms;
              continue;
            case 'begin':
              if (Object.hasOwn(session.context.calls, op.id)) continue; // both refuse a duplicate id (tested below)
              decision = session.beginToolCall({ id: op.id, kind: op.kind, tool: op.tool });
              event = { type: 'BEGIN', id: op.id, kind: op.kind, tool: op.tool, at: now };
              break;
            case 'end':
              session.endToolCall({
                id: op.id,
                ok: op.ok,
                ...(op.verified !== undefined && { verified: op.verified }),
              });
              event = { type: 'END', id: op.id, ok: op.ok, verified: op.verified, at: now };
              break;
            case 'check':
              decision = session.canExecuteTool(op.kind, op.tool);
              event = { type: 'CHECK', kind: op.kind, tool: op.tool, at: now };
              break;
            case 'success':
              session.onToolSuccess(op.kind, op.tool);
              event = { type: 'SUCCESS', kind: op.kind, tool: op.tool, at: now };
              break;
            case 'final':
              decision = session.canFinalAnswer();
              event = { type: 'FINAL', at: now };
              break;
            case 'complete':
              session.completeVerification();
              event = { type: 'COMPLETE', at: now };
              break;
          }
          r = reduce(r, event);
          if (decision !== 'none') {
            const got =
              decision === null
                ? null
                : (({ reasonCode, state, toolName, toolKind, consecutiveBlocks, required }) => ({
                    reasonCode,
                    state,
                    ...(toolName !== undefined && { toolName, toolKind }),
                    consecutiveBlocks,
                    required,
                  }))(decision as NonNullable<ReturnType<SafetySession['canFinalAnswer']>>);
            expect(got, `${JSON.stringify(op)} decision`).toEqual(r.blocked);
          }
          expect(observed(session), `${JSON.stringify(op)} state`).toEqual(expected(r));
        }
      }),
      {
        numRuns: 500,
        // A read that began before the write landed does not verify it; random runs reach this rarely.
        examples: [
          [
            [
              { op: 'success', kind: 'resolve', tool: 'find_vm' },
              { op: 'begin', id: 'c1', kind: 'read', tool: 'status' },
              { op: 'begin', id: 'c2', kind: 'write', tool: 'restart_vm' },
              { op: 'end', id: 'c2', ok: true },
              { op: 'end', id: 'c1', ok: true },
              { op: 'final' },
              { op: 'begin', id: 'c3', kind: 'write', tool: 'stop_vm' },
            ],
          ],
        ],
      },
    );
  });

  it('should refuse the arguments the session refuses', () => {
    const session = createSafetySession();
    session.beginToolCall({ id: 'c1', kind: 'read', tool: 'status' });
    const r = reduce(initialReducerState, { type: 'BEGIN', id: 'c1', kind: 'read', tool: 'status', at: 0 });
    const bad: Array<[() => unknown, () => unknown]> = [
      [
        () => session.beginToolCall({ id: 'c1', kind: 'read', tool: 'status' }),
        () => reduce(r, { type: 'BEGIN', id: 'c1', kind: 'read', tool: 'status', at: 1 }),
      ],
      [
        () => session.beginToolCall({ id: '', kind: 'read', tool: 'status' }),
        () => reduce(r, { type: 'BEGIN', id: '', kind: 'read', tool: 'status', at: 1 }),
      ],
      [
        () => session.canExecuteTool('delete' as Kind, 'x'),
        () => reduce(r, { type: 'CHECK', kind: 'delete' as Kind, tool: 'x' }),
      ],
      [() => session.onToolSuccess('read', ''), () => reduce(r, { type: 'SUCCESS', kind: 'read', tool: '', at: 1 })],
      [
        () => session.endToolCall({ id: 'c1', ok: 'yes' as never }),
        () => reduce(r, { type: 'END', id: 'c1', ok: 'yes' as never, at: 1 }),
      ],
    ];
    for (const [viaSession, viaReducer] of bad) {
      expect(viaSession).toThrow(TypeError);
      expect(viaReducer).toThrow(TypeError);
    }
  });
});
