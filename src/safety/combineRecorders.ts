import type { RecordingEntry, SessionRecorder } from './RecordingEntry.js';

/**
 * One recorder that hands every entry to each of `recorders`, in order (for
 * example a file recorder and the OpenTelemetry recorder of
 * `assistant-safety/otel`). A recorder that throws does not stop the others:
 * every one is called, then the first error is rethrown (an `AggregateError`
 * when several threw) so the session reports it through `onRecorderError`.
 * `undefined` entries are skipped, so optional recorders can be passed as they are.
 *
 * @example
 * const session = createSafetySession({
 *   recorder: combineRecorders(createFileRecorder('session.jsonl'), createOtelRecorder()),
 * });
 */
export function combineRecorders(...recorders: ReadonlyArray<SessionRecorder | undefined>): SessionRecorder {
  const all = recorders.filter((r): r is SessionRecorder => r !== undefined);
  return {
    record(entry: RecordingEntry): void {
      let errors: unknown[] | undefined;
      for (const recorder of all) {
        try {
          recorder.record(entry);
        } catch (error) {
          (errors ??= []).push(error);
        }
      }
      if (errors) {
        throw errors.length === 1
          ? errors[0]
          : new AggregateError(errors, `assistant-safety: ${errors.length} recorders failed`);
      }
    },
  };
}
