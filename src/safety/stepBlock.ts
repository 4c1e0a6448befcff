import { FSMBlockedError, type FSMBlockedInit } from './FSMBlockedError.js';
import type { NamedAction } from '../core/MachineRunner.js';
import type { SafetyContext } from './SafetyContext.js';
import type { SafetyEvent } from './SafetyEvent.js';
import type { BlockReasonCode, SessionState } from './toolKind.js';

/*
 * "Blocked" means one thing: the transition the machine took ran its `block` action. A session's
 * decision and its dry run (`can`) both read a step this way.
 */

/** The `block` action among those a transition ran, with its reason code (its params in the JSON). */
export function blockOf(actions: readonly NamedAction[]): { reasonCode: BlockReasonCode } | undefined {
  for (const a of actions) if (a.type === 'block') return a.params as { reasonCode: BlockReasonCode };
  return undefined;
}

/** The block as the caller sees it, from the step that made it (the action also wrote its details into the context). */
export function blockedErrorOf(
  event: SafetyEvent,
  before: { value: string; context: SafetyContext },
  after: { context: SafetyContext },
  reasonCode: BlockReasonCode,
  consecutiveBlocks: number,
): FSMBlockedError {
  const block = after.context.lastBlock;
  const init: FSMBlockedInit = {
    state: before.value as SessionState,
    reasonCode,
    consecutiveBlocks,
    readAfterWrite: before.context.readAfterWrite,
  };
  if (event.type === 'CHECK_TOOL' || event.type === 'BEGIN_CALL') {
    init.toolName = event.tool;
    init.toolKind = event.kind;
  }
  if (block?.targets !== undefined) init.targets = block.targets;
  if (block?.digest !== undefined) init.digest = block.digest;
  // What verifies the last write under binding: a model that read another target learns which one.
  const uncovered = before.context.uncoveredTargets;
  if ((reasonCode === 'UNVERIFIED_WRITE' || reasonCode === 'FINAL_ANSWER_UNVERIFIED') && uncovered.length > 0)
    init.unverifiedTargets = uncovered;
  return new FSMBlockedError(init);
}
