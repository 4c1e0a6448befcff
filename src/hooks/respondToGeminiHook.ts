import type { SafetySession } from '../safety/SafetySessionTypes.js';
import { fileTarget } from '../presets/codingAgent.js';
import type { GeminiHookInput, GeminiHookOutput } from './GeminiHookInput.js';
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
 * Gemini CLI's built-in tools by the Claude Code tool they match, so the coding-agent classifier
 * judges them the same way. A tool not here (an MCP tool, a custom one) goes to the classifier by
 * its own name: the rules file, then write.
 */
export const GEMINI_TOOLS: Readonly<Record<string, string>> = {
  read_file: 'Read',
  read_many_files: 'Glob',
  list_directory: 'LS',
  glob: 'Glob',
  grep_search: 'Grep',
  search_file_content: 'Grep',
  write_file: 'Write',
  replace: 'Edit',
  run_shell_command: 'Bash',
  web_fetch: 'WebFetch',
  google_web_search: 'WebSearch',
  write_todos: 'TodoWrite',
  save_memory: 'TodoWrite',
  ask_user: 'AskUserQuestion',
  enter_plan_mode: 'EnterPlanMode',
  exit_plan_mode: 'ExitPlanMode',
  activate_skill: 'Skill',
  get_internal_docs: 'Skill',
  delegate_to_agent: 'Agent',
  codebase_investigator: 'Agent',
  generalist: 'Agent',
};

/** The argument naming the file or folder, as Claude Code's tool spells it. */
const PATH_ARGS: Readonly<Record<string, readonly string[]>> = {
  Read: ['file_path', 'absolute_path', 'path'],
  Write: ['file_path', 'absolute_path', 'path'],
  Edit: ['file_path', 'absolute_path', 'path'],
  Grep: ['dir_path', 'path'],
};

/**
 * A Gemini CLI tool call as the gate sees it (named as Claude Code's tool where one matches).
 *
 * @example
 * geminiCall('read_file', { file_path: 'src/a.ts' }, '/repo').call; // { tool: 'read_file', kind: 'read', targets: ['file:/repo/src/a.ts'], ... }
 * geminiCall('run_shell_command', { command: 'npm test' }, '/repo').call.kind; // 'read'
 */
export function geminiCall(tool: string, input: unknown, cwd: string, options: AgentHookOptions = {}): AgentCall {
  const classify = classifierOf(options, cwd);
  const as = Object.hasOwn(GEMINI_TOOLS, tool) ? GEMINI_TOOLS[tool]! : tool;
  if (as === 'Bash') {
    const command = stringField(input, 'command');
    return { call: { ...classify('Bash', { command }), tool }, ...(command !== undefined && { command }) };
  }
  const pathArgs = PATH_ARGS[as];
  const path = pathArgs === undefined ? undefined : stringField(input, ...pathArgs);
  const renamed = pathArgs === undefined ? input : { [as === 'Grep' ? 'path' : 'file_path']: path };
  const call = { ...classify(as, renamed), tool };
  return {
    call,
    ...(as === 'Write' && path !== undefined && { creates: [{ path, target: fileTarget(path, cwd) }] }),
  };
}

/**
 * Decides one Gemini CLI hook event on a session, with no I/O: `BeforeTool` begins the call
 * (`decision: "deny"` with one sentence saying what clears the block), `AfterTool` ends it (failed
 * when its response carries an error), `AfterAgent` asks for the final answer and rejects the
 * response while an edit is unchecked (unless `stop_hook_active`: then the person is told),
 * `BeforeAgent` tells the session what the user typed. Gemini CLI sends no call id: a call is
 * known by its tool and input.
 *
 * @example
 * respondToGeminiHook(
 *   { hook_event_name: 'BeforeTool', session_id: 's', cwd: '/repo', tool_name: 'replace',
 *     tool_input: { file_path: '/repo/a.ts', old_string: 'x', new_string: 'y' } },
 *   createSafetySession({ targets: 'bind' }),
 * ); // { decision: 'deny', reason: 'Read a.ts first: ...' }
 */
export function respondToGeminiHook(
  input: GeminiHookInput,
  session: SafetySession,
  options: AgentHookOptions = {},
): GeminiHookOutput {
  switch (input.hook_event_name) {
    case 'BeforeTool': {
      const id = callIdOf(input.tool_name, input.tool_input);
      const refused = beginAgentCall(
        session,
        id,
        geminiCall(input.tool_name, input.tool_input, input.cwd, options),
        input.cwd,
        options,
      );
      return refused ? { decision: 'deny', reason: refused.reason } : {};
    }
    case 'AfterTool': {
      const id = callIdOf(input.tool_name, input.tool_input);
      const response = input.tool_response as { error?: unknown } | null | undefined;
      const failed =
        typeof response === 'object' && response !== null && response.error != null && response.error !== '';
      endAgentCall(
        session,
        id,
        failed ? 'failed' : 'ok',
        () => geminiCall(input.tool_name, input.tool_input, input.cwd, options).call,
      );
      return {};
    }
    case 'AfterAgent': {
      const refused = stopAgent(session, input.cwd, options);
      if (!refused) return {};
      if (input.stop_hook_active === true)
        return {
          systemMessage: `assistant-safety: the agent stopped with its last change unchecked. ${refused.reason}`,
        };
      return { decision: 'deny', reason: refused.reason };
    }
    case 'BeforeAgent':
      endLeftovers(session); // a new turn: what the last one left in flight never reported back
      session.userMessage(input.prompt);
      return {};
    case 'SessionStart':
    case 'SessionEnd':
      return {};
  }
}
