import type { ToolCall } from 'assistant-safety';

/*
 * Fake tools whose timing the test controls: every call waits on a deferred
 * promise until the test settles it. Nothing sleeps; "later" is whatever the
 * test decides.
 */

interface Pending {
  call: ToolCall;
  signal: AbortSignal;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export interface FakeTools {
  execute: (call: ToolCall, signal: AbortSignal) => Promise<unknown>;
  /** Call ids in the order they started. */
  readonly started: string[];
  /** Call ids in the order they were settled by the test. */
  readonly finished: string[];
  /** In flight now, and the most ever in flight at once. */
  readonly inFlight: number;
  readonly maxInFlight: number;
  /** For each start: the ids in flight right after it started (itself included). */
  readonly overlaps: Map<string, string[]>;
  /** The signal a call was given. */
  signalOf(id: string): AbortSignal;
  /** Ids started and not yet settled by the test. */
  running(): string[];
  resolve(id: string, value?: unknown): void;
  reject(id: string, error: unknown): void;
}

export function createFakeTools(): FakeTools {
  const pending = new Map<string, Pending>();
  const signals = new Map<string, AbortSignal>();
  const started: string[] = [];
  const finished: string[] = [];
  const overlaps = new Map<string, string[]>();
  let maxInFlight = 0;

  const take = (id: string) => {
    const p = pending.get(id);
    if (!p) throw new Error(`fake tool: call ${id} is not running`);
    pending.delete(id);
    finished.push(id);
    return p;
  };

  return {
    execute(call, signal) {
      return new Promise((resolve, reject) => {
        started.push(call.id);
        signals.set(call.id, signal);
        pending.set(call.id, { call, signal, resolve, reject });
        overlaps.set(call.id, [...pending.keys()]);
        maxInFlight = Math.max(maxInFlight, pending.size);
      });
    },
    started,
    finished,
    overlaps,
    get inFlight() {
      return pending.size;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    signalOf(id) {
      const s = signals.get(id);
      if (!s) throw new Error(`fake tool: call ${id} never started`);
      return s;
    },
    running: () => [...pending.keys()],
    resolve(id, value = { ok: true, id }) {
      take(id).resolve(value);
    },
    reject(id, error) {
      take(id).reject(error);
    },
  };
}

/** Lets every promise callback and timer-free continuation run (one macrotask turn). */
export const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Settles running calls one at a time, in the order `pick` chooses, until `done` settles. */
export async function drive<T>(
  tools: FakeTools,
  done: Promise<T>,
  pick: (running: string[]) => string = (running) => running[0]!,
  settle: (id: string) => void = (id) => tools.resolve(id),
): Promise<T> {
  let finished = false;
  void done.then(
    () => (finished = true),
    () => (finished = true),
  );
  for (;;) {
    await flush();
    if (finished) return done;
    const running = tools.running();
    if (running.length === 0) throw new Error('drive: nothing is running and the batch has not finished');
    settle(pick(running));
  }
}

/** Reads that establish a target (resolve), reads, writes and questions by name. */
export const kinds = {
  find_vm: 'resolve',
  get_logs: 'read',
  get_status: 'read',
  restart_vm: 'write',
  stop_vm: 'write',
  ask_user: 'user_input',
} as const;

export const classify = (name: string) => kinds[name as keyof typeof kinds] ?? 'write';
