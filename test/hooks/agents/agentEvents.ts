import { createSafetySession, type SafetySession } from 'assistant-safety';
import {
  CodexHookInput,
  CursorHookInput,
  GeminiHookInput,
  respondToCodexHook,
  respondToCursorHook,
  respondToGeminiHook,
  type AgentHookOptions,
} from 'assistant-safety/hooks';
import { DEFAULT_AGENT_PROFILE } from '../../../src/cli/hookAgent.js';

/*
 * Hook events as Codex CLI, Gemini CLI and Cursor send them (the fields their hook references
 * document, with values as they look in a real session), and one driver per agent that feeds a
 * tool call's before and after events to its respond function and reads the answer back in
 * common terms: refused with a reason, or a stop sent back with a reason.
 */

export const CWD = '/home/dev/repo';
export const FILE = `${CWD}/src/config.ts`;
export const REL = 'src/config.ts';

/** One agent's protocol, driven in common terms. */
export interface AgentDriver {
  name: 'codex' | 'gemini' | 'cursor';
  /**
   * What the model's sentence adds after a file it says to read: Codex has no tool that reads a
   * file (it reads with its shell), so its sentences name the commands; the others have one.
   */
  readsWith: string;
  /** The events of reading the file, editing it, running a shell command: before and after. */
  read(id: string): [unknown, unknown];
  edit(id: string): [unknown, unknown];
  shell(command: string, id: string): [unknown, unknown];
  stop(again?: boolean): unknown;
  /** The user sends a prompt: a new turn. */
  prompt(text: string): unknown;
  /** Decides one event (parsed with the agent's own input schema first), in common terms. */
  decide(event: unknown, session: SafetySession, options?: AgentHookOptions): { refused?: string; sentBack?: string };
}

/** A session with the hook's default settings: target binding and the hook's default profile. */
export const hookSession = () => createSafetySession({ targets: 'bind', profile: DEFAULT_AGENT_PROFILE });

const codexBase = {
  session_id: '019a2b3c-4d5e-7f80-9a1b-2c3d4e5f6a7b',
  transcript_path: '/home/dev/.codex/sessions/2026/05/18/rollout-2026-05-18T10-00-00-019a2b3c.jsonl',
  cwd: CWD,
  model: 'gpt-5-codex',
  permission_mode: 'default',
  turn_id: 'turn-3',
};
const codexTool = (tool_name: string, tool_input: unknown, tool_use_id: string, tool_response: unknown) =>
  [
    { ...codexBase, hook_event_name: 'PreToolUse', tool_name, tool_input, tool_use_id },
    { ...codexBase, hook_event_name: 'PostToolUse', tool_name, tool_input, tool_response, tool_use_id },
  ] as [unknown, unknown];

export const codex: AgentDriver = {
  name: 'codex',
  readsWith: ' with a shell command (`cat` or `sed -n`)',
  read: (id) => codexTool('Bash', { command: `sed -n '1,120p' ${REL}` }, id, 'export const config = {};\n'),
  edit: (id) =>
    codexTool(
      'apply_patch',
      {
        command: `*** Begin Patch\n*** Update File: ${REL}\n@@\n-export const config = {};\n+export const config = { retries: 3 };\n*** End Patch\n`,
      },
      id,
      'Success. Updated the following files:\nM src/config.ts\n',
    ),
  shell: (command, id) => codexTool('Bash', { command }, id, 'Tests  12 passed (12)\n'),
  stop: (again = false) => ({
    ...codexBase,
    hook_event_name: 'Stop',
    stop_hook_active: again,
    last_assistant_message: 'Done: config.ts now retries three times.',
  }),
  prompt: (prompt) => ({ ...codexBase, hook_event_name: 'UserPromptSubmit', prompt }),
  decide(event, session, options) {
    const out = respondToCodexHook(CodexHookInput.parse(event), session, options) as Record<string, any> | undefined;
    return {
      ...(out?.hookSpecificOutput?.permissionDecision === 'deny' && {
        refused: out.hookSpecificOutput.permissionDecisionReason,
      }),
      ...(out?.decision === 'block' && { sentBack: out.reason }),
    };
  },
};

const geminiBase = {
  session_id: '7c1e2f9a-3b4d-4e5f-8a6b-9c0d1e2f3a4b',
  transcript_path: '/home/dev/.gemini/tmp/5f1c/chats/session-2026-05-18T10-00-7c1e2f9a.json',
  cwd: CWD,
  timestamp: '2026-05-18T10:00:00.000Z',
};
const geminiTool = (tool_name: string, tool_input: unknown, tool_response: unknown) =>
  [
    { ...geminiBase, hook_event_name: 'BeforeTool', tool_name, tool_input },
    { ...geminiBase, hook_event_name: 'AfterTool', tool_name, tool_input, tool_response },
  ] as [unknown, unknown];

export const gemini: AgentDriver = {
  name: 'gemini',
  readsWith: '',
  read: () =>
    geminiTool('read_file', { file_path: FILE }, { llmContent: 'export const config = {};\n', returnDisplay: '' }),
  edit: () =>
    geminiTool(
      'replace',
      { file_path: FILE, old_string: 'export const config = {};', new_string: 'export const config = { retries: 3 };' },
      { llmContent: `Successfully modified file: ${FILE} (1 replacements).`, returnDisplay: { fileName: 'config.ts' } },
    ),
  shell: (command) =>
    geminiTool(
      'run_shell_command',
      { command, description: 'Run the tests', dir_path: CWD },
      { llmContent: `Command: ${command}\nOutput: Tests  12 passed (12)\nExit Code: 0`, returnDisplay: '' },
    ),
  stop: (again = false) => ({
    ...geminiBase,
    hook_event_name: 'AfterAgent',
    prompt: 'Make the config retry three times',
    prompt_response: 'Done: config.ts now retries three times.',
    stop_hook_active: again,
  }),
  prompt: (prompt) => ({ ...geminiBase, hook_event_name: 'BeforeAgent', prompt }),
  decide(event, session, options) {
    const out = respondToGeminiHook(GeminiHookInput.parse(event), session, options) as Record<string, any>;
    const before = (event as { hook_event_name: string }).hook_event_name === 'BeforeTool';
    return out.decision === 'deny' ? (before ? { refused: out.reason } : { sentBack: out.reason }) : {};
  },
};

const cursorBase = {
  conversation_id: '3f2a1b0c-9d8e-4f7a-b6c5-d4e3f2a1b0c9',
  generation_id: '8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5968',
  model: 'claude-4.5-sonnet',
  cursor_version: '2.1.32',
  workspace_roots: [CWD],
  user_email: 'dev@example.com',
  transcript_path: '/home/dev/.cursor/projects/repo/agent-transcripts/3f2a1b0c.txt',
};
const cursorTool = (tool_name: string, tool_input: unknown, tool_use_id: string, tool_output: unknown) =>
  [
    { ...cursorBase, hook_event_name: 'preToolUse', tool_name, tool_input, tool_use_id, cwd: CWD },
    { ...cursorBase, hook_event_name: 'postToolUse', tool_name, tool_input, tool_output, tool_use_id, cwd: CWD },
  ] as [unknown, unknown];

export const cursor: AgentDriver = {
  name: 'cursor',
  readsWith: '',
  read: (id) => cursorTool('Read', { path: FILE }, id, 'export const config = {};\n'),
  edit: (id) =>
    cursorTool(
      'StrReplace',
      { path: FILE, old_string: 'export const config = {};', new_string: 'export const config = { retries: 3 };' },
      id,
      'The file has been updated.',
    ),
  shell: (command, id) => cursorTool('Shell', { command, cwd: CWD }, id, 'Tests  12 passed (12)\n'),
  stop: (again = false) => ({ ...cursorBase, hook_event_name: 'stop', status: 'completed', loop_count: again ? 1 : 0 }),
  prompt: (prompt) => ({ ...cursorBase, hook_event_name: 'beforeSubmitPrompt', prompt }),
  decide(event, session, options) {
    const out = respondToCursorHook(CursorHookInput.parse(event), session, options) as Record<string, any>;
    return {
      ...(out.permission === 'deny' && { refused: out.agent_message }),
      ...(typeof out.followup_message === 'string' && { sentBack: out.followup_message }),
    };
  },
};

export const AGENTS = [codex, gemini, cursor];
