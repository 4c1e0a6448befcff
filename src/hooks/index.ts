/*
 * assistant-safety/hooks: the gate for coding agents through their hook protocols (Claude Code,
 * docs/coding-agents.md; Codex CLI, Gemini CLI and Cursor, docs/other-coding-agents.md): the hook events and answers as schemas, the decision on a
 * session for one event, the settings merge of `hook install`, and the classification of
 * coding-agent tools (Bash by a shell-word parser).
 */
export {
  ClaudeCodeHookInput,
  CLAUDE_CODE_HOOK_EVENTS,
  PreToolUseInput,
  PostToolUseInput,
  PostToolUseFailureInput,
  PermissionDeniedInput,
  StopInput,
  SessionStartInput,
  SessionEndInput,
  UserPromptSubmitInput,
} from './ClaudeCodeHookInput.js';
export {
  ClaudeCodeHookOutput,
  PreToolUseOutput,
  StopBlockOutput,
  SystemMessageOutput,
} from './ClaudeCodeHookOutput.js';
export { respondToClaudeCodeHook } from './respondToClaudeCodeHook.js';
export type { ClaudeCodeHookOptions } from './respondToClaudeCodeHook.js';
export { explainBlock } from './explainBlock.js';
export type { BlockFacts, BlockSentences } from './explainBlock.js';
export { mergeClaudeCodeSettings, ClaudeCodeSettings, ClaudeCodeSettingsError } from './mergeClaudeCodeSettings.js';
export {
  createCodingAgentClassifier,
  codingAgentClassifier,
  CODING_AGENT_TOOLS,
  fileTarget,
} from '../presets/codingAgent.js';
export type { CodingAgentCall, CodingAgentClassifier, CodingAgentClassifierOptions } from '../presets/codingAgent.js';
export { classifyShellCommand } from '../presets/classifyShellCommand.js';
export type { ShellClassification, ShellClassifyOptions } from '../presets/classifyShellCommand.js';
export { ShellRules } from '../presets/ShellRules.js';
export { parseShellCommand } from '../presets/parseShellCommand.js';
export type { ParsedShell, ShellCommand, ShellRedirect } from '../presets/parseShellCommand.js';
// Codex CLI, Gemini CLI and Cursor (docs/other-coding-agents.md): the same gate in their hook formats.
export type { AgentHookOptions, AgentCall, AgentBlock } from './agentHookCore.js';
export { CodexHookInput, CodexHookOutput, CODEX_HOOK_EVENTS } from './CodexHookInput.js';
export { respondToCodexHook, codexCall, patchFiles } from './respondToCodexHook.js';
export type { PatchFiles } from './respondToCodexHook.js';
export { GeminiHookInput, GeminiHookOutput, GEMINI_HOOK_EVENTS } from './GeminiHookInput.js';
export { respondToGeminiHook, geminiCall, GEMINI_TOOLS } from './respondToGeminiHook.js';
export { CursorHookInput, CursorHookOutput, CURSOR_HOOK_EVENTS } from './CursorHookInput.js';
export { respondToCursorHook, cursorCall, CURSOR_TOOLS } from './respondToCursorHook.js';
export { mergeCodexHooks, mergeGeminiSettings, mergeCursorHooks, AgentHooksError } from './mergeAgentHooks.js';
export type { HookAgent, MergedHooks } from './mergeAgentHooks.js';
