/** Runs tasks at most `concurrency` at a time, starting them in the order they were given. */
export interface Limiter {
  /**
   * Runs `task` when a slot is free. An `exclusive` task waits until nothing
   * is running and runs alone; tasks given after it wait for it.
   */
  run<T>(task: () => Promise<T>, options?: { exclusive?: boolean }): Promise<T>;
  /** Tasks running now. */
  readonly active: number;
}

interface Queued {
  exclusive: boolean;
  start: () => void;
}

/**
 * A first-in, first-out concurrency limiter with exclusive tasks (a task
 * that must not overlap any other, like asking the user a question).
 *
 * @example
 * const limit = createLimiter(2);
 * await Promise.all(urls.map((u) => limit.run(() => fetch(u))));
 */
export function createLimiter(concurrency: number): Limiter {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`createLimiter: concurrency must be a positive integer, got ${String(concurrency)}`);
  }
  const queue: Queued[] = [];
  let active = 0;
  let exclusiveRunning = false;

  const pump = () => {
    while (queue.length > 0 && !exclusiveRunning) {
      const head = queue[0]!;
      if (head.exclusive ? active > 0 : active >= concurrency) return;
      queue.shift();
      active += 1;
      if (head.exclusive) exclusiveRunning = true;
      head.start();
    }
  };

  return {
    get active() {
      return active;
    },
    run<T>(task: () => Promise<T>, options: { exclusive?: boolean } = {}): Promise<T> {
      const exclusive = options.exclusive === true;
      return new Promise<T>((resolve, reject) => {
        queue.push({
          exclusive,
          start: () => {
            let running: Promise<T>;
            try {
              running = task();
            } catch (e) {
              running = Promise.reject(e);
            }
            running.then(resolve, reject).finally(() => {
              active -= 1;
              if (exclusive) exclusiveRunning = false;
              pump();
            });
          },
        });
        pump();
      });
    },
  };
}
