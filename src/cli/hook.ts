import { UsageError, type Command } from './Command.js';
import { HOOK_CLAUDE_CODE_USAGE, runClaudeCodeHook } from './hookClaudeCode.js';

export const hookCommand: Command = {
  name: 'hook',
  summary:
    'gate a coding agent through its hooks (Claude Code, Codex CLI, Gemini CLI, Cursor): the hook command, and its installer',
  // The installer first: a person reads this page to install; Claude Code runs the hook itself.
  usage: `assistant-safety hook install claude-code [--project|--user] [--settings FILE] [--dry-run] [-- HOOK OPTIONS...]

Adds the gate to Claude Code's settings for PreToolUse, PostToolUse,
PostToolUseFailure, PermissionDenied (matcher "*"), Stop, SessionStart,
SessionEnd and UserPromptSubmit; existing settings and hooks are kept, an entry of ours already
there is updated, never doubled. The command never fails open: a missing
installation or a crash exits 2 (Claude Code refuses the call) saying what to do.

  --project         .claude/settings.json at the project root (default: the nearest
                    folder from here up, not above the git root, whose node_modules
                    holds assistant-safety): the project's own installation through
                    $CLAUDE_PROJECT_DIR, so the settings work in every clone
  --user            ~/.claude/settings.json ($CLAUDE_CONFIG_DIR/settings.json when
                    set): this installation, by its absolute path
  --settings FILE   this settings file instead (the project form of the command; its
                    project, from the file's folder up, must have the package)
  --dry-run         print the change as a diff; write nothing
  --command CMD     the hook command to install (default: this installation's own)
  -- OPTIONS        options for the hook command (--rules FILE, --escalate CODES, ...),
                    checked as the hook reads them (the rules file too) before anything
                    is written; relative paths are made absolute (from $CLAUDE_PROJECT_DIR
                    in the project form, which refuses a path outside the project);
                    --live's URL is written without its token: start the agent with
                    ASSISTANT_SAFETY_LIVE_TOKEN in its environment

${HOOK_CLAUDE_CODE_USAGE}

assistant-safety hook codex|gemini|cursor [OPTIONS]

The same gate for Codex CLI, Gemini CLI and Cursor, in their hook formats
(docs/other-coding-agents.md); install with hook install codex|gemini|cursor.

assistant-safety hook serve [--state-dir DIR]

Keeps the gate loaded for the hook commands of this state folder (127.0.0.1, a
token in DIR/serve.json): each event is handed to it, and decided by the command
itself whenever it is not running.`,
  async run(argv, io) {
    const [agent, ...rest] = argv;
    if (agent === 'claude-code') return runClaudeCodeHook(rest, io);
    if (agent === 'codex' || agent === 'gemini' || agent === 'cursor') {
      const { runAgentHook } = await import('./hookAgent.js');
      return runAgentHook(agent, rest, io);
    }
    if (agent === 'serve') {
      const { runHookServe } = await import('./hookServe.js');
      return runHookServe(rest, io);
    }
    if (agent === 'install') {
      // The installer is loaded only when installing: a hook process never pays for it.
      const { runHookInstall } = await import('./hookInstall.js');
      return runHookInstall(rest, io);
    }
    throw new UsageError(
      `hook speaks claude-code, codex, gemini, cursor (and install <agent>, serve), got ${agent === undefined ? 'nothing' : JSON.stringify(agent)}`,
    );
  },
};
