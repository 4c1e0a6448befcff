import type { Issue } from '../../core/Issue.js';
import type { ToolLoopErrorCode } from './errorCodes.js';

/** One thing wrong with the loop's input: where (`['options', 'concurrency']`, `['calls', 2, 'id']`) and what. */
export type ToolLoopIssue = Issue;

/**
 * Thrown by the tool loop for input it cannot use. Nothing was applied to the
 * session when it is thrown: no call began, none ran.
 *
 * @example
 * try {
 *   await loop.runBatch(calls);
 * } catch (e) {
 *   if (e instanceof ToolLoopError && e.code === 'INVALID_TOOL_CALL') console.error(e.issues);
 * }
 */
export class ToolLoopError extends Error {
  constructor(
    readonly code: ToolLoopErrorCode,
    message: string,
    readonly issues: readonly ToolLoopIssue[] = [],
  ) {
    super(message);
    this.name = 'ToolLoopError';
  }
}
