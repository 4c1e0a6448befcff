import type {
  PermissionDeniedHookInput,
  PostToolUseFailureHookInput,
  PostToolUseHookInput,
  PreToolUseHookInput,
  SessionEndHookInput,
  SessionStartHookInput,
  StopHookInput,
} from '@anthropic-ai/claude-agent-sdk';

/*
 * Hook events as Claude Code sends them, built from its documented schema: each fixture is typed
 * with the Claude Agent SDK's own hook input types (the SDK hands its callbacks the same objects),
 * so a field the protocol renames or drops fails the type check here.
 */

export const CWD = '/home/dev/repo';
export const FILE = `${CWD}/src/config.ts`;

const base = (session: string) => ({
  session_id: session,
  transcript_path: `/home/dev/.claude/projects/repo/${session}.jsonl`,
  cwd: CWD,
  permission_mode: 'default',
});

export const events = (session: string) => ({
  pre: (tool_name: string, tool_input: Record<string, unknown>, tool_use_id: string): PreToolUseHookInput => ({
    ...base(session),
    hook_event_name: 'PreToolUse',
    tool_name,
    tool_input,
    tool_use_id,
  }),
  post: (tool_name: string, tool_input: Record<string, unknown>, tool_use_id: string): PostToolUseHookInput => ({
    ...base(session),
    hook_event_name: 'PostToolUse',
    tool_name,
    tool_input,
    tool_response: { success: true },
    tool_use_id,
  }),
  failure: (
    tool_name: string,
    tool_input: Record<string, unknown>,
    tool_use_id: string,
    is_interrupt = false,
  ): PostToolUseFailureHookInput => ({
    ...base(session),
    hook_event_name: 'PostToolUseFailure',
    tool_name,
    tool_input,
    tool_use_id,
    error: is_interrupt ? 'Interrupted by user' : 'Command failed with exit code 1',
    is_interrupt,
  }),
  denied: (tool_name: string, tool_input: Record<string, unknown>, tool_use_id: string): PermissionDeniedHookInput => ({
    ...base(session),
    hook_event_name: 'PermissionDenied',
    tool_name,
    tool_input,
    tool_use_id,
    reason: 'The user denied the permission request',
  }),
  stop: (stop_hook_active: boolean): StopHookInput => ({
    ...base(session),
    hook_event_name: 'Stop',
    stop_hook_active,
  }),
  start: (): SessionStartHookInput => ({ ...base(session), hook_event_name: 'SessionStart', source: 'startup' }),
  end: (): SessionEndHookInput => ({ ...base(session), hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' }),
});

/** Tool inputs in the shapes of the SDK's own tool input types. */
export const read = (file_path = FILE) => ({ file_path });
export const edit = (file_path = FILE) => ({ file_path, old_string: 'port: 80', new_string: 'port: 8080' });
export const bash = (command: string) => ({ command, description: 'run a command' });
export const todo = () => ({
  todos: [{ content: 'change the port', status: 'in_progress', activeForm: 'Changing the port' }],
});
