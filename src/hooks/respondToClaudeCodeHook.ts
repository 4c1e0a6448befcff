import type { SafetySession } from '../safety/SafetySessionTypes.js';
import { finishToolCall } from '../harness/loop/finishToolCall.js';
import type { BlockReasonCode } from '../safety/toolKind.js';
import {
  codingAgentClassifier,
  codingCallStart,
  establishCreatedFile,
  type CodingAgentCall,
  type CodingAgentClassifier,
} from '../presets/codingAgent.js';
import type { ClaudeCodeHookInput } from './ClaudeCodeHookInput.js';
import type { ClaudeCodeHookOutput } from './ClaudeCodeHookOutput.js';
import { explainBlock } from './explainBlock.js';
import { endLeftovers, sentencesOf } from './agentHookCore.js';
import type { FSMBlockedError } from '../safety/FSMBlockedError.js';

/** Options of {@link respondToClaudeCodeHook}. */
export interface ClaudeCodeHookOptions {
  /** How tool calls are classified. Default {@link codingAgentClassifier}. */
  classify?: CodingAgentClassifier;
  /**
   * Block reasons answered `ask` (the person decides) instead of `deny`. Approving supplies the
   * evidence the block asked for (`session.attest`). Default none. `WRITE_IN_FLIGHT` is never asked.
   */
  escalate?: readonly BlockReasonCode[];
  /** Who an approval is attested by. Default `claude-code-user`. */
  approvedBy?: string;
  /**
   * Tells whether `Write` would create a file (its `file_path`, as given, and the event's `cwd`).
   * A new file cannot be read first, so creating one establishes its target (source `tool`); the
   * write must still be verified by reading it. Without it, a new file is like any other target.
   */
  isNewFile?: (path: string, cwd: string) => boolean;
}

/** The note key of the calls answered `ask`, by tool-use id. */
const ASKED = 'asked';

type Notes = Record<string, unknown>;

/**
 * What the person was shown when a call was answered `ask`: the block's reason and targets, and
 * a digest of the tool and its input. Their approval is evidence for that block of that call
 * only: the call's PostToolUse applies it only when the session, deciding the call again, finds
 * the same block for the same input (a block that arose meanwhile was never shown to anyone).
 */
interface Asked {
  code: string;
  targets: string[];
  input: string;
}

function askedOf(notes: Notes): Record<string, Asked | string> {
  const v = notes[ASKED];
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return (notes[ASKED] = {}) as Record<string, Asked | string>;
  return v as Record<string, Asked | string>;
}

/** FNV-1a (53 bits) of the tool name and input, as hex: enough to tell one input from another. */
function digest(tool: string, input: unknown): string {
  const text = `${tool}\u0000${JSON.stringify(input) ?? ''}`;
  let h1 = 0x811c9dc5;
  let h2 = 0x1000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
  }
  return `${(h1 >>> 0).toString(16)}${(h2 >>> 0).toString(16)}`;
}

/** Whether a block is the one the person was shown (same reason, same targets). */
function sameBlock(block: FSMBlockedError, seen: Asked | string): seen is Asked {
  if (typeof seen === 'string') return false; // a note from before approvals were bound: never applied
  const targets = [...(block.targets ?? [])].sort();
  return (
    block.reasonCode === seen.code &&
    targets.length === seen.targets.length &&
    targets.every((t, i) => t === seen.targets[i])
  );
}

/** The sentences of a block of this call (the targets still needing evidence from the session when the block has none). */
function sentences(
  block: FSMBlockedError,
  session: SafetySession,
  input: { cwd: string; tool_input?: unknown },
  classify: CodingAgentClassifier,
  call?: CodingAgentCall,
) {
  const command = (input.tool_input as { command?: unknown } | null | undefined)?.command;
  return sentencesOf(block, session, input.cwd, {
    ...(typeof command === 'string' && { command }),
    ...(call && { call }),
    classify,
  });
}

/** A reason as Claude Code shows it: the sentence, then the block's code in brackets (for logs and tests). */
const worded = (sentence: string, block: FSMBlockedError) => `${sentence} [${block.reasonCode}]`;

const start = codingCallStart;

/**
 * Decides one Claude Code hook event on a session: the whole protocol, with no I/O (the hook
 * command and the Claude Agent SDK adapter both call it). `PreToolUse` begins the call (nothing
 * to answer when allowed, `deny` with one sentence saying what clears the block, `ask` with one naming the file or
 * command, each ending with the block's code in brackets, see {@link explainBlock});
 * `PostToolUse` ends it (and, for a call answered `ask`, records the person's approval as the
 * evidence the block asked for); `PostToolUseFailure` and `PermissionDenied` end it as failed
 * (`unknown` for an interrupt); `Stop` ends what never reported back and answers
 * `decision: "block"` while the last write is unverified, unless `stop_hook_active`. `notes` is
 * kept with the session between events (which calls were answered `ask`).
 *
 * @example
 * const session = createSafetySession();
 * respondToClaudeCodeHook(
 *   { hook_event_name: 'PreToolUse', session_id: 's', transcript_path: '', cwd: '/repo',
 *     tool_name: 'Edit', tool_input: { file_path: '/repo/a.ts' }, tool_use_id: 't1' },
 *   session, {},
 * ); // { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', ... } }
 */
export function respondToClaudeCodeHook(
  input: ClaudeCodeHookInput,
  session: SafetySession,
  notes: Notes,
  options: ClaudeCodeHookOptions = {},
): ClaudeCodeHookOutput | undefined {
  const classify = options.classify ?? codingAgentClassifier;
  const inFlight = (id: string) => Object.hasOwn(session.context.calls, id);

  switch (input.hook_event_name) {
    case 'PreToolUse': {
      const id = input.tool_use_id;
      if (inFlight(id)) return undefined; // asked twice (two matching entries): already begun
      const call = classify(input.tool_name, input.tool_input);
      const path = (input.tool_input as { file_path?: unknown } | null)?.file_path;
      establishCreatedFile(
        session,
        call,
        () => typeof path === 'string' && options.isNewFile?.(path, input.cwd) === true,
      );
      const blocked = session.beginToolCall(start(id, call));
      if (!blocked) return undefined;
      const words = sentences(blocked, session, input, classify, call);
      if (options.escalate?.includes(blocked.reasonCode) && blocked.reasonCode !== 'WRITE_IN_FLIGHT') {
        askedOf(notes)[id] = {
          code: blocked.reasonCode,
          targets: [...(blocked.targets ?? [])].sort(),
          input: digest(input.tool_name, input.tool_input),
        };
        return {
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'ask',
            permissionDecisionReason: worded(words.person, blocked),
          },
        };
      }
      return {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: worded(words.model, blocked),
        },
      };
    }
    case 'PostToolUse': {
      const id = input.tool_use_id;
      if (inFlight(id)) {
        // A read that verifies the last write completes the verification at once: the next write may go.
        // What the response reveals by the rules file's `discovers` fields is validated with it.
        const discovered = classify.discover?.(input.tool_name, input.tool_response, input.tool_input) ?? [];
        finishToolCall(session, { id, ok: true, ...(discovered.length > 0 && { discovered }) });
        return undefined;
      }
      const call = classify(input.tool_name, input.tool_input);
      const asked = askedOf(notes);
      if (Object.hasOwn(asked, id)) {
        // The call was answered `ask` and it ran: the person approved it. Their approval is the
        // evidence the block they were shown asked for, for this call and input only; the machine
        // then decides the call again.
        const seen = asked[id]!;
        delete asked[id];
        let blocked = session.beginToolCall(start(id, call));
        if (
          blocked &&
          sameBlock(blocked, seen) &&
          seen.input === digest(input.tool_name, input.tool_input) &&
          session.attest(blocked, {
            by: options.approvedBy ?? 'claude-code-user',
            note: `approved ${call.tool} in Claude Code`,
          })
        )
          blocked = session.beginToolCall(start(id, call));
        if (!blocked) {
          finishToolCall(session, { id, ok: true });
          return undefined;
        }
      }
      // A call that ran without being admitted (its PreToolUse timed out, or the approval could
      // not be attested): the session still learns what ran.
      session.onToolSuccess(call.kind, call.tool);
      return undefined;
    }
    case 'PostToolUseFailure': {
      const id = input.tool_use_id;
      delete askedOf(notes)[id];
      if (inFlight(id)) session.endToolCall({ id, ok: false, ...(input.is_interrupt === true && { unknown: true }) });
      return undefined;
    }
    case 'PermissionDenied': {
      const id = input.tool_use_id;
      delete askedOf(notes)[id];
      if (inFlight(id)) session.endToolCall({ id, ok: false });
      return undefined;
    }
    case 'Stop': {
      // Every tool call has finished when the agent stops: one that never reported back may have acted.
      endLeftovers(session);
      notes[ASKED] = {};
      const blocked = session.canFinalAnswer();
      if (!blocked) return undefined;
      const words = sentences(blocked, session, input, classify);
      if (input.stop_hook_active)
        return {
          systemMessage: `assistant-safety: the agent stopped with its last change unchecked. ${words.model} [${blocked.reasonCode}]`,
        };
      return { decision: 'block', reason: worded(words.model, blocked) };
    }
    case 'UserPromptSubmit':
      // A new turn: the last one is over, and a call it left in flight never reported back (an
      // interrupted turn sends no Stop). It may have acted, so it ends as unknown, not as a write
      // that blocks every later one until some Stop.
      endLeftovers(session);
      // What the user typed: a value standing in it validates a target (with `targets: 'bind'`).
      session.userMessage(input.prompt);
      return undefined;
    case 'SessionStart':
    case 'SessionEnd':
      return undefined;
  }
}
