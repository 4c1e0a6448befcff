import { describe, expect, it } from 'vitest';
import { runPatrol, type PatrolPassInput } from 'assistant-safety/patrol';

/*
 * A pass that writes, reads the result back and writes again goes on as under the tool loop: the
 * read that verifies the write completes it. Before, the second write was blocked for a
 * verification nobody could complete (Patrol's session is its own), and the session's advice to
 * call completeVerification() reached a user who never sees that session.
 */
describe('a Patrol pass that writes again after reading its write back', () => {
  it('should let the second write run, with no advice to the caller', async () => {
    const warnings: string[] = [];
    const results: unknown[] = [];
    await runPatrol({
      tools: {
        find_vm: { kind: 'resolve', run: () => 'vm-1' },
        restart_vm: { kind: 'write', run: () => 'ok' },
        vm_status: { kind: 'read', run: () => 'up' },
      },
      sessionOptions: { onWarning: (m: string) => warnings.push(m) },
      passes: {
        main: async ({ tools }: PatrolPassInput) => {
          for (const t of ['find_vm', 'restart_vm', 'vm_status', 'restart_vm']) results.push(await tools.call(t, {}));
        },
      },
    });
    expect(results.map((r) => (r as { ok: boolean }).ok)).toEqual([true, true, true, true]);
    expect(warnings).toEqual([]);
  });

  it('should still block a second write that nothing read back', async () => {
    const results: unknown[] = [];
    await runPatrol({
      tools: {
        find_vm: { kind: 'resolve', run: () => 'vm-1' },
        restart_vm: { kind: 'write', run: () => 'ok' },
      },
      passes: {
        main: async ({ tools }: PatrolPassInput) => {
          for (const t of ['find_vm', 'restart_vm', 'restart_vm']) results.push(await tools.call(t, {}));
        },
      },
    });
    expect(results.map((r) => (r as { ok: boolean }).ok)).toEqual([true, true, false]);
  });
});
