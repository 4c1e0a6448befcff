import type { SafetySession } from '../safety/SafetySessionTypes.js';
import { fileTarget } from '../presets/codingAgent.js';
import type { CursorHookInput, CursorHookOutput } from './CursorHookInput.js';
import {
  beginAgentCall,
  callIdOf,
  endLeftovers,
  classifierOf,
  endAgentCall,
  stopAgent,
  stringField,
  type AgentCall,
  type AgentHookOptions,
} from './agentHookCore.js';

/**
 * Cursor's agent tools by the Claude Code tool they match, so the coding-agent classifier judges
 * them the same way. `MCP:<server>:<tool>` becomes `mcp__<server>__<tool>` (the rules file's
 * names); anything else goes to the classifier by its own name: the rules file, then write.
 */
export const CURSOR_TOOLS: Readonly<Record<string, string>> = {
  Shell: 'Bash',
  Read: 'Read',
  Write: 'Write',
  StrReplace: 'Edit',
  Edit: 'Edit',
  MultiEdit: 'Edit',
  EditNotebook: 'Edit',
  Delete: 'Edit',
  Grep: 'Grep',
  Glob: 'Glob',
  LS: 'LS',
  Task: 'Agent',
  WebFetch: 'WebFetch',
  WebSearch: 'WebSearch',
  TodoWrite: 'TodoWrite',
  AskQuestion: 'AskUserQuestion',
};

/** The arguments Cursor's file tools name their file with. */
const FILE_ARGS = ['file_path', 'path', 'target_file', 'target_notebook'] as const;

/** The event's working folder: its `cwd`, else the first workspace root. */
export function cursorCwd(input: { cwd?: string | undefined; workspace_roots: string[] }): string {
  return input.cwd || input.workspace_roots.find((r) => r !== '') || '/';
}

/**
 * A Cursor tool call as the gate sees it (named as Claude Code's tool where one matches).
 *
 * @example
 * cursorCall('StrReplace', { path: '/repo/a.ts' }, '/repo').call; // { tool: 'StrReplace', kind: 'write', targets: ['file:/repo/a.ts'], ... }
 * cursorCall('MCP:db:query', {}, '/repo').call.kind; // by the rules file's mcp__db__query, else 'write'
 */
export function cursorCall(tool: string, input: unknown, cwd: string, options: AgentHookOptions = {}): AgentCall {
  const classify = classifierOf(options, cwd);
  const mcp = /^MCP:(.+)$/.exec(tool);
  if (mcp) return { call: { ...classify(`mcp__${mcp[1]!.split(':').join('__')}`, input), tool } };
  const as = Object.hasOwn(CURSOR_TOOLS, tool) ? CURSOR_TOOLS[tool]! : tool;
  if (as === 'Bash') {
    const command = stringField(input, 'command');
    return { call: { ...classify('Bash', { command }), tool }, ...(command !== undefined && { command }) };
  }
  if (as === 'Read' || as === 'Write' || as === 'Edit' || as === 'Grep') {
    const path = stringField(input, ...FILE_ARGS);
    const call = { ...classify(as, path === undefined ? {} : { [as === 'Grep' ? 'path' : 'file_path']: path }), tool };
    return {
      call,
      ...(as === 'Write' && path !== undefined && { creates: [{ path, target: fileTarget(path, cwd) }] }),
    };
  }
  return { call: { ...classify(as, input), tool } };
}

/**
 * Decides one Cursor hook event on a session, with no I/O: `preToolUse` begins the call
 * (`permission: "deny"` with one sentence saying what clears the block), `postToolUse` ends it,
 * `postToolUseFailure` ends it as failed (`unknown` when interrupted or timed out: it may have
 * acted), `stop` asks for the final answer and sends the agent back once (`followup_message`)
 * while an edit is unchecked, `beforeSubmitPrompt` tells the session what the user typed. A call
 * is known by its `tool_use_id`, or by its tool and input when Cursor sends none.
 *
 * @example
 * respondToCursorHook(
 *   { hook_event_name: 'preToolUse', conversation_id: 'c', workspace_roots: ['/repo'],
 *     tool_name: 'StrReplace', tool_input: { path: '/repo/a.ts' }, tool_use_id: 't1' },
 *   createSafetySession({ targets: 'bind' }),
 * ); // { permission: 'deny', agent_message: 'Read a.ts first: ...', user_message: '...' }
 */
export function respondToCursorHook(
  input: CursorHookInput,
  session: SafetySession,
  options: AgentHookOptions = {},
): CursorHookOutput {
  const cwd = cursorCwd(input);
  switch (input.hook_event_name) {
    case 'preToolUse': {
      const id = input.tool_use_id ?? callIdOf(input.tool_name, input.tool_input);
      const refused = beginAgentCall(
        session,
        id,
        cursorCall(input.tool_name, input.tool_input, cwd, options),
        cwd,
        options,
      );
      if (!refused) return {};
      return {
        permission: 'deny',
        agent_message: refused.reason,
        user_message: `assistant-safety: ${refused.words.model}`,
      };
    }
    case 'postToolUse':
    case 'postToolUseFailure': {
      const id = input.tool_use_id ?? callIdOf(input.tool_name, input.tool_input);
      const outcome =
        input.hook_event_name === 'postToolUse'
          ? 'ok'
          : input.is_interrupt === true || input.failure_type === 'timeout'
            ? 'unknown'
            : 'failed';
      endAgentCall(session, id, outcome, () => cursorCall(input.tool_name, input.tool_input, cwd, options).call);
      return {};
    }
    case 'stop': {
      const refused = stopAgent(session, cwd, options);
      // Sent back once (as Claude Code's stop_hook_active): a follow-up already asked lets it stop.
      if (!refused || (input.loop_count ?? 0) > 0 || (input.status !== undefined && input.status !== 'completed'))
        return {};
      return { followup_message: refused.reason };
    }
    case 'beforeSubmitPrompt':
      endLeftovers(session); // a new turn: what the last one left in flight never reported back
      session.userMessage(input.prompt);
      return { continue: true };
    case 'sessionStart':
    case 'sessionEnd':
      return {};
  }
}
