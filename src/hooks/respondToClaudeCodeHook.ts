import type { SafetySession } from '../SafetySession.js';
import { finishToolCall } from '../loop/finishToolCall.js';
import type { BlockReasonCode } from '../toolKind.js';
import { codingAgentClassifier, type CodingAgentCall, type CodingAgentClassifier } from '../presets/codingAgent.js';
import type { ClaudeCodeHookInput } from './ClaudeCodeHookInput.js';
import type { ClaudeCodeHookOutput } from './ClaudeCodeHookOutput.js';

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

function askedOf(notes: Notes): Record<string, string> {
  const v = notes[ASKED];
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return (notes[ASKED] = {}) as Record<string, string>;
  return v as Record<string, string>;
}

function start(id: string, call: CodingAgentCall) {
  return {
    id,
    kind: call.kind,
    tool: call.tool,
    ...(call.targets && { targets: call.targets }),
    ...(call.stateOnly && { stateOnly: true }),
    ...(call.trust && { trust: call.trust }),
  };
}

/**
 * Decides one Claude Code hook event on a session: the whole protocol, with no I/O (the hook
 * command and the Claude Agent SDK adapter both call it). `PreToolUse` begins the call (nothing
 * to answer when allowed, `deny` or `ask` with the block's JSON envelope as reason);
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
      if (
        call.tool === 'Write' &&
        call.targets &&
        typeof path === 'string' &&
        !call.targets.every((t) => session.validatedTargets.includes(t)) &&
        options.isNewFile?.(path, input.cwd) === true
      )
        session.targetEstablished({ targets: call.targets, source: 'tool' });
      const blocked = session.beginToolCall(start(id, call));
      if (!blocked) return undefined;
      const reason = JSON.stringify(blocked);
      if (options.escalate?.includes(blocked.reasonCode) && blocked.reasonCode !== 'WRITE_IN_FLIGHT') {
        askedOf(notes)[id] = blocked.reasonCode;
        return {
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'ask',
            permissionDecisionReason: reason,
          },
        };
      }
      return {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: reason,
        },
      };
    }
    case 'PostToolUse': {
      const id = input.tool_use_id;
      if (inFlight(id)) {
        // A read that verifies the last write completes the verification at once: the next write may go.
        finishToolCall(session, { id, ok: true });
        return undefined;
      }
      const call = classify(input.tool_name, input.tool_input);
      const asked = askedOf(notes);
      if (Object.hasOwn(asked, id)) {
        // The call was answered `ask` and it ran: the person approved it. Their approval is the
        // evidence the block asked for; the machine then decides the call again.
        delete asked[id];
        let blocked = session.beginToolCall(start(id, call));
        if (
          blocked &&
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
      for (const id of Object.keys(session.context.calls)) session.endToolCall({ id, ok: false, unknown: true });
      notes[ASKED] = {};
      const blocked = session.canFinalAnswer();
      if (!blocked) return undefined;
      if (input.stop_hook_active)
        return {
          systemMessage: `assistant-safety: the agent stopped with its last write unverified (${blocked.reasonCode}): ${blocked.reason}`,
        };
      return { decision: 'block', reason: JSON.stringify(blocked) };
    }
    case 'SessionStart':
    case 'SessionEnd':
      return undefined;
  }
}
