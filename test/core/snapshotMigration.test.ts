import { describe, expect, it } from 'vitest';
import { createSafetySession, restoreSafetySession } from 'assistant-safety';

describe('snapshots of version 1', () => {
  it('should load through the migration and keep behaving the same', () => {
    const s = createSafetySession({ id: 'old' });
    s.targetEstablished();
    s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' });
    // A version 1 snapshot: no shadow calls, no target sets.
    const v2 = s.persist() as unknown as { version: number; context: Record<string, unknown> };
    const { shadowCalls: _a, validatedTargets: _b, uncoveredTargets: _c, ...context } = v2.context;
    const v1 = { ...v2, version: 1, context };
    const restored = restoreSafetySession(JSON.parse(JSON.stringify(v1)));
    expect(restored.state).toBe('WRITING');
    expect(restored.persist().version).toBe(3);
    expect(restored.context.validatedTargets).toEqual([]);
    restored.endToolCall({ id: 'w', ok: true });
    expect(restored.beginToolCall({ id: 'w2', kind: 'write', tool: 'stop_vm' })?.reasonCode).toBe('UNVERIFIED_WRITE');
  });
});
