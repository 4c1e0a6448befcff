import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSafetySession, restoreSafetySession, SnapshotError } from 'assistant-safety';
import { checksummedCopy } from '../../src/safety/PersistedSession.js';
import { sessionCall } from '../compiled/executors.js';

/*
 * A snapshot the session wrote itself carries a checksum; a restore that finds it intact skips the
 * schema check. What it restores must be exactly what the full check restores, and any change to
 * the snapshot sends it through the full check again.
 */

const clock = () => 1_700_000_000_000;
const withoutChecksum = (snapshot: object) => {
  const { checksum: _, ...rest } = snapshot as { checksum?: string };
  return rest;
};

describe('restoring a snapshot the session wrote itself', () => {
  it('should restore exactly what the full check restores, from the object and from its text', () => {
    fc.assert(
      fc.property(fc.array(sessionCall, { maxLength: 40 }), (calls) => {
        const session = createSafetySession({ id: 's', now: clock, onWarning: () => {} });
        for (const call of calls) {
          try {
            session.perform(call);
          } catch {
            // a call the session refuses (an id already in flight) changes nothing
          }
        }
        const snapshot = session.persist();
        expect(snapshot.checksum).toMatch(/^fnv2:[0-9a-f]{8}$/);
        for (const input of [JSON.parse(JSON.stringify(snapshot)), JSON.stringify(snapshot)]) {
          const full = restoreSafetySession(withoutChecksum(snapshot), { now: clock, onWarning: () => {} });
          const restored = restoreSafetySession(input, { now: clock, onWarning: () => {} });
          expect(restored.state).toBe(full.state);
          expect(restored.context).toEqual(full.context);
          expect(restored.persist()).toEqual(snapshot);
          const next = { id: 'next', kind: 'write', tool: 'restart_vm' } as const;
          expect(restored.beginToolCall(next)?.toJSON() ?? null).toEqual(full.beginToolCall(next)?.toJSON() ?? null);
          expect(restored.persist()).toEqual(full.persist());
        }
      }),
      { numRuns: 200 },
    );
  });

  it('should check a changed snapshot in full, and report what is wrong with it', () => {
    const session = createSafetySession({ now: clock });
    const snapshot = JSON.parse(JSON.stringify(session.persist()));
    snapshot.blockStreak = -1; // the checksum no longer matches
    expect(() => restoreSafetySession(snapshot)).toThrow(SnapshotError);
    expect(() => restoreSafetySession(snapshot)).toThrow(/blockStreak/);
  });

  it('should not copy a caller’s object it trusts: changing it afterwards changes nothing in the session', () => {
    const session = createSafetySession({ now: clock });
    session.targetEstablished({ targets: ['vm:1'] });
    const snapshot = JSON.parse(JSON.stringify(session.persist()));
    const restored = restoreSafetySession(snapshot, { now: clock });
    snapshot.context.wroteThisEpisode = true;
    snapshot.state = 'VERIFYING';
    expect(restored.state).toBe('READING');
    expect(restored.wroteThisEpisode).toBe(false);
  });

  it('should take the fast path only on a matching checksum (it is a checksum, not a signature)', () => {
    // Someone who recomputes the checksum of an edited snapshot gets it past the schema check: the
    // store's access control protects snapshots, as documented. A negative streak shows it was skipped.
    const session = createSafetySession({ now: clock });
    const { checksum: _, id, ...body } = JSON.parse(JSON.stringify(session.persist()));
    body.blockStreak = -1;
    const forged = { ...body, id, checksum: checksummedCopy(body, false)!.checksum };
    expect(() => restoreSafetySession(forged, { now: clock })).not.toThrow();
    expect(() => restoreSafetySession({ ...forged, checksum: '00000000' }, { now: clock })).toThrow(/blockStreak/);
  });

  it('should notice a context field moved or renamed, though field names are checked rather than hashed', () => {
    const session = createSafetySession({ now: clock });
    session.beginToolCall({ id: 'r', kind: 'read', tool: 'vm_status' });
    session.endToolCall({ id: 'r', ok: true });
    const snapshot = JSON.parse(JSON.stringify(session.persist()));
    expect(checksummedCopy(snapshot, false)?.checksum).toBe(snapshot.checksum);
    // Two fields of the same type swap values: the values are hashed in the context's field order.
    const swapped = structuredClone(snapshot);
    [swapped.context.lastReadAt, swapped.context.lastWriteAt] = [
      snapshot.context.lastWriteAt,
      snapshot.context.lastReadAt,
    ];
    expect(checksummedCopy(swapped, false)?.checksum).not.toBe(snapshot.checksum);
    // A field renamed: not a snapshot of this shape at all, so the restore checks it in full and names it.
    const renamed = structuredClone(snapshot);
    renamed.context.lastReadWhen = renamed.context.lastReadAt;
    delete renamed.context.lastReadAt;
    expect(checksummedCopy(renamed, false)).toBeUndefined();
    expect(() => restoreSafetySession(renamed, { now: clock })).toThrow(/lastRead/);
  });

  it('should restore a changed snapshot that passes the full check with a warning, and say nothing otherwise', () => {
    const session = createSafetySession({ id: 'edited', now: clock });
    session.beginToolCall({ id: 'f', kind: 'resolve', tool: 'find_vm' });
    session.endToolCall({ id: 'f', ok: true });
    session.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' });
    session.endToolCall({ id: 'w', ok: true });
    const snapshot = JSON.parse(JSON.stringify(session.persist()));
    expect(snapshot.state).toBe('VERIFYING');
    const warnings: string[] = [];
    const onWarning = (m: string) => warnings.push(m);

    restoreSafetySession(snapshot, { now: clock, onWarning });
    restoreSafetySession(JSON.stringify(withoutChecksum(snapshot)), { now: clock, onWarning });
    restoreSafetySession({ ...snapshot, checksum: '28e61656' }, { now: clock, onWarning }); // an older build's: not comparable
    expect(warnings).toEqual([]);

    // Edited by hand in the store: a state the machine could reach, so the full check passes.
    const edited = { ...snapshot, state: 'READING' };
    for (const input of [edited, JSON.stringify(edited)]) {
      const restored = restoreSafetySession(input, { now: clock, onWarning });
      expect(restored.state).toBe('READING');
    }
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('session "edited": snapshot changed after it was written (checksum mismatch)');
  });
});
