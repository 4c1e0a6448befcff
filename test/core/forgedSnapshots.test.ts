import { describe, expect, it } from 'vitest';
import {
  createKindSession,
  createMachineOfKind,
  createSafetySession,
  KindSessionError,
  restoreKindSession,
  restoreSafetySession,
  safetyMachineDefinition,
  safetyMachineKind,
  SnapshotError,
  type SafetyContext,
  type SafetyEvent,
} from 'assistant-safety';
import { checksummedCopy } from '../../src/safety/PersistedSession.js';

/*
 * A checksum spares a restore the parsing, but anyone who edits a snapshot can recompute it. What
 * the full check refuses (a state no run reaches, a list past its cap) must be refused whether or
 * not the checksum matches: from the snapshot as an object and as text, with the field named.
 */

const clock = () => 1_700_000_000_000;

/** The session's snapshot after `edit`, its checksum recomputed as a forger would. */
function forged(edit: (body: { state: string; context: Record<string, unknown> }) => void) {
  const session = createSafetySession({ id: 's', now: clock });
  session.targetEstablished({ targets: ['vm:1'] });
  const { checksum: _, id, ...body } = JSON.parse(JSON.stringify(session.persist()));
  edit(body);
  return { ...body, id, checksum: checksummedCopy(body, false)!.checksum };
}

function refusal(input: unknown): SnapshotError {
  try {
    restoreSafetySession(input, { now: clock });
  } catch (e) {
    expect(e).toBeInstanceOf(SnapshotError);
    return e as SnapshotError;
  }
  throw new Error('the forged snapshot was restored');
}

const WRITE = { kind: 'write', tool: 'restart_vm', epoch: 0, startedAt: clock() };

describe('restoring a snapshot whose checksum was recomputed after an edit', () => {
  it('should refuse a write in flight in READING, naming the state', () => {
    const snapshot = forged((b) => {
      b.context['calls'] = { w1: WRITE };
    });
    for (const input of [snapshot, JSON.stringify(snapshot)]) {
      const e = refusal(input);
      expect(e.message).toMatch(/state: a write in flight in state READING/);
      expect(e.issues.map((i) => i.path)).toContainEqual(['state']);
    }
  });

  it('should refuse WRITING with no write in flight', () => {
    const e = refusal(forged((b) => void (b.state = 'WRITING')));
    expect(e.message).toMatch(/state WRITING with no write in flight/);
  });

  it('should refuse more validated targets than the cap, naming the list', () => {
    const snapshot = forged((b) => {
      b.context['validatedTargets'] = Array.from({ length: 257 }, (_, i) => `vm:${i}`);
    });
    for (const input of [snapshot, JSON.stringify(snapshot)]) {
      const e = refusal(input);
      expect(e.issues.map((i) => i.path)).toContainEqual(['context', 'validatedTargets']);
    }
  });

  it('should refuse a provenance for a target that is not validated', () => {
    const e = refusal(
      forged((b) => {
        b.context['provenance'] = [{ target: 'vm:9', source: 'tool', tool: 'get_vm' }];
      }),
    );
    expect(e.issues.map((i) => i.path)).toContainEqual(['context', 'provenance', 0, 'target']);
  });

  it('should still restore the unedited snapshot through the fast path', () => {
    const snapshot = forged(() => {});
    const restored = restoreSafetySession(snapshot, { now: clock });
    expect(restored.state).toBe('READING');
    expect(restored.persist()).toEqual(snapshot);
  });
});

describe('restoring the safety machine as a kind session', () => {
  it('should refuse a state no run reaches with the same check as the safety session, naming the state', () => {
    const machine = createMachineOfKind(safetyMachineKind, safetyMachineDefinition);
    const session = createKindSession<SafetyContext, SafetyEvent>(safetyMachineKind, machine, {}, { now: clock });
    session.send({ type: 'TARGET_ESTABLISHED', targets: ['vm:1'], at: clock() } as SafetyEvent);
    const good = JSON.parse(JSON.stringify(session.persist()));
    expect(restoreKindSession(safetyMachineKind, machine, good).state).toBe(session.state);
    const bad = { ...good, state: 'READING', context: { ...good.context, calls: { w1: WRITE } } };
    try {
      restoreKindSession(safetyMachineKind, machine, bad);
      throw new Error('the edited snapshot was restored');
    } catch (e) {
      expect(e).toBeInstanceOf(KindSessionError);
      expect((e as KindSessionError).message).toMatch(/state: a write in flight in state READING/);
      expect((e as KindSessionError).issues.map((i) => i.path)).toContainEqual(['state']);
    }
  });
});
