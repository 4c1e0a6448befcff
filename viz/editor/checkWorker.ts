import { runWorkerRequest } from './model/runWorkerRequest.js';
import type { WorkerRequest, WorkerResponse } from './model/WorkerMessages.js';

/*
 * The editor's web worker: the exhaustive invariant check (and recording
 * replays) off the page's main thread, so the page stays responsive while a
 * machine is explored. One request per worker; the page terminates a worker
 * whose answer it no longer needs.
 */

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(message: WorkerResponse): void;
};

scope.onmessage = (event) => scope.postMessage(runWorkerRequest(event.data));
