import { describe, expect, it } from 'vitest';
import { createSafetySession, restoreSafetySession } from 'assistant-safety';

describe('snapshots of version 1', () => {
  it('should load through the migration and keep behaving the same', () => {
    const s = createSafetySession({ id: 'old' });
    s.targetEstablished();
    s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' });
    // A version 1 snapshot: no shadow calls, no target sets, no provenance, no edited files.
    const now = s.persist() as unknown as { version: number; context: Record<string, unknown> };
    const {
      shadowCalls: _a,
      validatedTargets: _b,
      uncoveredTargets: _c,
      provenance: _d,
      userWords: _e,
      approvals: _f,
      editedFiles: _g,
      ...context
    } = now.context;
    const v1 = { ...now, version: 1, context };
    const restored = restoreSafetySession(JSON.parse(JSON.stringify(v1)));
    expect(restored.state).toBe('WRITING');
    expect(restored.persist().version).toBe(4);
    expect(restored.context.validatedTargets).toEqual([]);
    expect(restored.context.editedFiles).toEqual([]);
    restored.endToolCall({ id: 'w', ok: true });
    expect(restored.beginToolCall({ id: 'w2', kind: 'write', tool: 'stop_vm' })?.reasonCode).toBe('UNVERIFIED_WRITE');
  });
});

describe('snapshots of version 3', () => {
  it('should load with no edited files, so a coding session carries on from where it was', () => {
    const s = createSafetySession({ id: 'v3', targets: 'bind', profile: 'coding' });
    s.beginToolCall({ id: 'r', kind: 'read', tool: 'Read', targets: ['file:/a.ts'] });
    s.endToolCall({ id: 'r', ok: true });
    const now = s.persist() as unknown as { version: number; context: Record<string, unknown> };
    const { editedFiles: _g, ...context } = now.context;
    const restored = restoreSafetySession(JSON.parse(JSON.stringify({ ...now, version: 3, context })));
    expect(restored.persist().version).toBe(4);
    expect(restored.context.editedFiles).toEqual([]);
    expect(restored.beginToolCall({ id: 'e', kind: 'write', tool: 'Edit', targets: ['file:/a.ts'] })).toBeNull();
    restored.endToolCall({ id: 'e', ok: true });
    expect(restored.canFinalAnswer()?.targets).toEqual(['file:/a.ts']);
  });
});
