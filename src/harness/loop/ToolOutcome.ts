import type { ToolKind } from '../../safety/toolKind.js';
import type { ToolOutcomeCode } from './errorCodes.js';

/** Why a call did not produce a result: a stable code, a sentence, and string or boolean details. */
export interface ToolOutcomeError {
  error: ToolOutcomeCode;
  message: string;
  details?: Record<string, string | boolean | string[]>;
}

/**
 * What became of one call of a batch; feed it back to the model as that
 * call's tool result.
 *
 * - `ok`: the tool ran and returned `result`.
 * - `blocked`: the call never ran (`error.error` is `FSM_BLOCKED`, `LOOK_BEFORE_ASKING` or `LOOP_DETECTED`).
 * - `error`: the call was admitted but threw, timed out or was aborted.
 */
export interface ToolOutcome {
  id: string;
  name: string;
  kind: ToolKind;
  status: 'ok' | 'error' | 'blocked';
  result?: unknown;
  error?: ToolOutcomeError;
}
