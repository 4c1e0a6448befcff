import type { SafetySession } from '../safety/SafetySessionTypes.js';
import { fileTarget, type CodingAgentCall } from '../presets/codingAgent.js';
import type { CodexHookInput, CodexHookOutput } from './CodexHookInput.js';
import {
  beginAgentCall,
  classifierOf,
  endAgentCall,
  endLeftovers,
  stopAgent,
  stringField,
  type AgentCall,
  type AgentHookOptions,
  type AgentWording,
} from './agentHookCore.js';

/** Codex has no tool that reads a file (it reads with its shell): its sentences name the commands. */
const CODEX_WORDING: AgentWording = { readsWithShell: true };

/** The files an `apply_patch` envelope names, by what it does to them. */
export interface PatchFiles {
  added: string[];
  changed: string[];
}

/**
 * The files of a Codex `apply_patch` envelope (`*** Add File: p`, `*** Update File: p`,
 * `*** Delete File: p`, `*** Move to: p`). A patch that names none yields none.
 *
 * @example
 * patchFiles('*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n*** End Patch');
 * // { added: [], changed: ['src/a.ts'] }
 */
export function patchFiles(patch: string): PatchFiles {
  const added: string[] = [];
  const changed: string[] = [];
  for (const line of patch.split(/\r?\n/)) {
    const m = /^\*\*\* (Add File|Update File|Delete File|Move to): (.+?)\s*$/.exec(line);
    if (!m) continue;
    (m[1] === 'Add File' ? added : changed).push(m[2]!);
  }
  return { added, changed };
}

/** The patch text of an `apply_patch` call: `tool_input.command`, or the input itself when it is a string. */
const patchOf = (input: unknown) =>
  typeof input === 'string' ? input : stringField(input, 'command', 'patch', 'input');

/**
 * A Codex tool call as the gate sees it: `Bash` by its command line (as Claude Code's), an
 * `apply_patch` as a write to every file it names (an added file may be new), `mcp__*` and
 * anything else through the classifier (the rules file, then write).
 *
 * @example
 * codexCall('apply_patch', { command: '*** Begin Patch\n*** Add File: b.ts\n+x\n*** End Patch' }, '/repo');
 * // { call: { kind: 'write', targets: ['file:/repo/b.ts'], ... }, creates: [{ path: 'b.ts', target: 'file:/repo/b.ts' }] }
 */
export function codexCall(tool: string, input: unknown, cwd: string, options: AgentHookOptions = {}): AgentCall {
  const classify = classifierOf(options, cwd);
  if (tool === 'apply_patch') {
    const patch = patchOf(input);
    const files = patch === undefined ? { added: [], changed: [] } : patchFiles(patch);
    const all = [...new Set([...files.added, ...files.changed])];
    const call: CodingAgentCall = {
      tool,
      kind: 'write',
      ...(all.length > 0 && { targets: all.map((p) => fileTarget(p, cwd)) }),
      rule: all.length > 0 ? 'apply_patch: a write to every file it names' : 'apply_patch naming no file',
    };
    return { call, creates: files.added.map((path) => ({ path, target: fileTarget(path, cwd) })) };
  }
  const command = tool === 'Bash' ? stringField(input, 'command') : undefined;
  return { call: classify(tool, input), ...(command !== undefined && { command }) };
}

/**
 * Decides one Codex CLI hook event on a session, with no I/O: `PreToolUse` begins the call
 * (`deny` with one sentence saying what clears the block; nothing when allowed), `PostToolUse`
 * ends it, `Stop` ends what never reported back and answers `decision: "block"` while an edit
 * is unchecked (unless `stop_hook_active`: then the person is told), `UserPromptSubmit` tells
 * the session what the user typed. Codex reports no failed tool call: a write still in flight
 * when the next call begins never reported back, and is ended `unknown` (it may have acted).
 *
 * @example
 * respondToCodexHook(
 *   { hook_event_name: 'PreToolUse', session_id: 's', cwd: '/repo', tool_name: 'apply_patch',
 *     tool_input: { command: '*** Begin Patch\n*** Update File: a.ts\n*** End Patch' }, tool_use_id: 'c1' },
 *   createSafetySession({ targets: 'bind' }),
 * ); // { hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'Read a.ts first with a shell command (`cat` or `sed -n`): ...' } }
 */
export function respondToCodexHook(
  input: CodexHookInput,
  session: SafetySession,
  options: AgentHookOptions = {},
): CodexHookOutput | undefined {
  switch (input.hook_event_name) {
    case 'PreToolUse': {
      // Codex tools run one at a time, and a failed one sends nothing: a write still in flight is over.
      endLeftovers(session, (kind) => kind === 'write');
      const refused = beginAgentCall(
        session,
        input.tool_use_id,
        codexCall(input.tool_name, input.tool_input, input.cwd, options),
        input.cwd,
        options,
        CODEX_WORDING,
      );
      if (!refused) return undefined;
      return {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: refused.reason,
        },
      };
    }
    case 'PostToolUse':
      endAgentCall(
        session,
        input.tool_use_id,
        'ok',
        () => codexCall(input.tool_name, input.tool_input, input.cwd, options).call,
      );
      return undefined;
    case 'Stop': {
      const refused = stopAgent(session, input.cwd, options, CODEX_WORDING);
      if (!refused) return undefined;
      if (input.stop_hook_active)
        return {
          systemMessage: `assistant-safety: the agent stopped with its last change unchecked. ${refused.reason}`,
        };
      return { decision: 'block', reason: refused.reason };
    }
    case 'UserPromptSubmit':
      endLeftovers(session); // a new turn: what the last one left in flight never reported back
      session.userMessage(input.prompt);
      return undefined;
    case 'SessionStart':
    case 'SessionEnd':
      return undefined;
  }
}
