import { runWorkerRequest } from './model/runWorkerRequest.js';
import type { WorkerRequest, WorkerResponse } from './model/WorkerMessages.js';

/** A request running in a web worker: its answer, and a way to stop it. */
export interface WorkerJob {
  result: Promise<WorkerResponse>;
  /** Terminates the worker; `result` never settles then. */
  cancel(): void;
}

/**
 * Runs one request in a fresh web worker (inline, on a later task, where the
 * page has no Worker, as in jsdom tests).
 *
 * @example
 * const job = startWorkerJob({ type: 'check', definition });
 * job.result.then((r) => r.type === 'check' && show(r.check));
 */
export function startWorkerJob(request: WorkerRequest): WorkerJob {
  if (typeof Worker === 'undefined') {
    let cancelled = false;
    return {
      result: new Promise((resolve) =>
        setTimeout(() => {
          if (!cancelled) resolve(runWorkerRequest(request));
        }, 0),
      ),
      cancel: () => void (cancelled = true),
    };
  }
  const worker = new Worker(new URL('./checkWorker.ts', import.meta.url), { type: 'module' });
  const result = new Promise<WorkerResponse>((resolve) => {
    worker.onmessage = (event: MessageEvent<WorkerResponse>) => {
      resolve(event.data);
      worker.terminate();
    };
    worker.onerror = (event) => {
      resolve({ type: 'error', message: `the check worker failed: ${event.message}` });
      worker.terminate();
    };
  });
  worker.postMessage(request);
  return { result, cancel: () => worker.terminate() };
}
