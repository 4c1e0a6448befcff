import { readdirSync, readFileSync } from 'node:fs';
import {
  BlockReasonCode,
  SESSION_STATES,
  createSafetySession,
  createToolLoop,
  ERROR_CODE_MEANINGS,
  TOOL_LOOP_ERROR_CODES,
  TOOL_OUTCOME_CODES,
  ToolLoopError,
  type ToolCall,
} from 'assistant-safety';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { classify, createFakeTools, drive, flush } from './fakeTools.js';

const declared = new Set<string>([...TOOL_OUTCOME_CODES, ...TOOL_LOOP_ERROR_CODES]);

afterEach(() => {
  vi.useRealTimers();
});

/** Drives the loop into every situation that yields a code; returns the codes seen. */
async function emitEverything(): Promise<Set<string>> {
  const seen = new Set<string>();
  const note = (outcomes: { error?: { error: string } }[]) =>
    outcomes.forEach((o) => o.error && seen.add(o.error.error));
  const catchCode = async (fn: () => unknown) => {
    try {
      await fn();
    } catch (e) {
      if (e instanceof ToolLoopError) seen.add(e.code);
      else throw e;
    }
  };

  const tools = createFakeTools();
  const controller = new AbortController();
  const loop = createToolLoop({
    session: createSafetySession(),
    execute: tools.execute,
    classify,
    maxIdenticalCalls: 1,
    signal: controller.signal,
  });
  note(await drive(tools, loop.runBatch([{ id: 'q', name: 'ask_user', args: {} }]))); // LOOK_BEFORE_ASKING
  note(await drive(tools, loop.runBatch([{ id: 'w', name: 'restart_vm', args: {} }]))); // FSM_BLOCKED
  note(await drive(tools, loop.runBatch([{ id: 'w2', name: 'restart_vm', args: {} }]))); // LOOP_DETECTED
  note(await drive(tools, loop.runBatch([{ id: 'r', name: 'get_logs' }]), undefined, (id) => tools.reject(id, 'x'))); // TOOL_ERROR
  const pending = loop.runBatch([{ id: 'r2', name: 'get_status' }]);
  await catchCode(() => loop.runBatch([{ id: 'r3', name: 'get_status' }])); // BATCH_IN_PROGRESS
  await flush();
  controller.abort();
  note(await pending); // TOOL_ABORTED
  await catchCode(() => loop.runBatch([{ id: '', name: 'get_status' }])); // INVALID_TOOL_CALL
  await catchCode(() => createToolLoop({ session: createSafetySession(), execute: 42 as never, classify })); // INVALID_OPTIONS
  await catchCode(() =>
    createToolLoop({
      session: createSafetySession(),
      execute: tools.execute,
      classify: () => 'nope' as never,
    }).runBatch([{ id: 'a', name: 'b' }]),
  ); // INVALID_CLASSIFICATION

  vi.useFakeTimers();
  const timed = createToolLoop({ session: createSafetySession(), execute: tools.execute, toolTimeoutMs: 10, classify });
  const slow = timed.runBatch([{ id: 's', name: 'get_logs' }]);
  await vi.advanceTimersByTimeAsync(10);
  note(await slow); // TOOL_TIMEOUT
  vi.useRealTimers();
  return seen;
}

describe('stable error codes', () => {
  it('should emit every code the module declares, and only those', async () => {
    const seen = await emitEverything();
    expect([...seen].sort()).toEqual([...declared].sort());
  });

  it('should only ever emit declared codes, whatever the batch and however the tools behave', async () => {
    const names = ['find_vm', 'get_logs', 'restart_vm', 'stop_vm', 'ask_user'];
    const behaviours = ['ok', 'throw', 'hang', 'verify', 'abort'] as const;
    const call = fc.record({
      name: fc.constantFrom(...names),
      args: fc.record({ vm: fc.constantFrom('a', 'b'), behaviour: fc.constantFrom(...behaviours) }),
    });
    vi.useFakeTimers();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(call, { maxLength: 6 }), { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 4 }),
        async (batches, inOrder, concurrency) => {
          const controller = new AbortController();
          const session = createSafetySession();
          const loop = createToolLoop({
            session,
            classify,
            concurrency,
            toolTimeoutMs: 50,
            maxIdenticalCalls: 2,
            mustRunInOrder: () => inOrder,
            signal: controller.signal,
            execute: (c: ToolCall, signal) => {
              const { behaviour } = c.args as { behaviour: (typeof behaviours)[number] };
              if (behaviour === 'ok') return Promise.resolve('fine');
              if (behaviour === 'verify') return Promise.resolve({ verification: { ok: true } });
              if (behaviour === 'throw') return Promise.reject(new Error('boom'));
              if (behaviour === 'abort') controller.abort();
              return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
            },
          });
          let n = 0;
          for (const batch of batches) {
            const running = loop.runBatch(batch.map((c) => ({ id: `c${n++}`, ...c })));
            await vi.runAllTimersAsync();
            for (const outcome of await running) {
              if (outcome.status === 'ok') expect(outcome.error).toBeUndefined();
              else expect(declared).toContain(outcome.error!.error);
            }
            expect(session.context.calls).toEqual({});
            expect(session.state).not.toBe('WRITING');
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('should not spell an undeclared code anywhere in the loop', () => {
    const dir = new URL('../../src/harness/loop/', import.meta.url);
    const spelt = new Set<string>();
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'errorCodes.ts')) {
      const text = readFileSync(new URL(file, dir), 'utf8');
      for (const m of text.matchAll(/['"`]([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)['"`:]/g)) spelt.add(m[1]!);
    }
    // Codes the loop spells out must be its own or the core's vocabulary (session reasons and states, in comments).
    const vocabulary = new Set<string>([...declared, ...BlockReasonCode.options, ...SESSION_STATES]);
    expect([...spelt].filter((code) => !vocabulary.has(code))).toEqual([]);
  });

  it('should document every code in docs/tool-loop.md with the meaning the module gives it', () => {
    const page = readFileSync(new URL('../../docs/tool-loop.md', import.meta.url), 'utf8');
    const section = page.split('\n## Error codes')[1]!.split('\n## ')[0]!;
    const rows = new Map(
      section
        .split('\n')
        .map((line) => line.split('|').map((cell) => cell.trim()))
        .filter((cells) => cells.length === 4 && /^`[A-Z_]+`$/.test(cells[1]!))
        .map((cells) => [cells[1]!.slice(1, -1), cells[2]!]),
    );
    expect(Object.fromEntries(rows)).toEqual(ERROR_CODE_MEANINGS);
  });
});
