import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ClaudeCodeSettingsError, mergeClaudeCodeSettings } from '../hooks/mergeClaudeCodeSettings.js';
import { UsageError, type CliIO } from './Command.js';
import {
  installedHookArgs,
  installArgs,
  findProjectRoot,
  refuseWithoutPackage,
  PROJECT_BIN,
  quote,
  refuseHookOptions,
  writeHookSettings,
} from './hookInstallFile.js';

/**
 * A hook command that never fails open: Claude Code treats any exit code but 2 as "go on", so a
 * missing installation, a missing `node` or a crash must all end as exit 2 with what to do.
 * `bin` is a shell word (it may use `$CLAUDE_PROJECT_DIR`); `args` are already quoted.
 */
function guardedCommand(bin: string, node: string, args: string, missing: string): string {
  return (
    `f=${bin}; if [ -f "$f" ]; then ${node} "$f" hook claude-code${args} || exit 2; ` +
    `else echo "assistant-safety: ${missing}; the call is refused" >&2; exit 2; fi`
  );
}

/**
 * The hook command for a project's shared settings: the project's own installation, found
 * through \`$CLAUDE_PROJECT_DIR\` (Claude Code sets it), so the same line works in every clone.
 */
function projectCommand(args: string): string {
  return guardedCommand(
    `"$CLAUDE_PROJECT_DIR"/${PROJECT_BIN}`,
    'node',
    args,
    'not installed in this project ($CLAUDE_PROJECT_DIR): run npm install --save-dev assistant-safety there',
  );
}

/** This installation's hook command (for the user's own settings): the running node and the built bin, absolute paths. */
function ownCommand(args: string): string {
  const bin = fileURLToPath(new URL('./bin.js', import.meta.url));
  if (!existsSync(bin)) throw new UsageError(`cannot find the built command at ${bin}; pass --command`);
  return guardedCommand(
    quote(bin),
    quote(process.execPath),
    args,
    `${bin.replace(/(["\\$`])/g, '\\$1')} is gone: reinstall assistant-safety (npm install -g assistant-safety) and run hook install claude-code --user again`,
  );
}

/** `hook install claude-code`: merges the hook entries into a settings file (atomically), or prints the diff. */
export async function runHookInstall(argv: string[], io: CliIO): Promise<number> {
  const dashes = argv.indexOf('--');
  const own = dashes === -1 ? argv : argv.slice(0, dashes);
  const other = own.find((a) => a === 'codex' || a === 'gemini' || a === 'cursor');
  if (other) return (await import('./hookInstallAgents.js')).runAgentHookInstall(other, argv, io);
  const { values, positionals, passed } = installArgs(argv);
  if (positionals.length !== 1 || positionals[0] !== 'claude-code')
    throw new UsageError(
      `hook install supports claude-code, codex, gemini, cursor, got ${positionals.join(' ') || 'nothing'}`,
    );
  // The project is found from here (or from the settings file named) up, as the installed command
  // finds it: run from a subfolder, the settings still go to the project's root.
  const named = values.settings === undefined ? undefined : resolve(values.settings);
  const start = named === undefined ? process.cwd() : dirname(named);
  const found = values.user ? undefined : findProjectRoot(start);
  const root = found ?? process.cwd();
  const hook = installedHookArgs(values, passed, true, '"$CLAUDE_PROJECT_DIR"', root);
  if ('error' in hook) return refuseHookOptions('claude-code', hook.error, io);
  const { args } = hook;
  const path = resolve(
    values.settings ??
      (values.user
        ? join(process.env.CLAUDE_CONFIG_DIR || join(homedir(), '.claude'), 'settings.json')
        : join(root, '.claude', 'settings.json')),
  );
  let command: string;
  if (values.command !== undefined) command = `${values.command}${args}`;
  else if (values.user) command = ownCommand(args);
  else {
    // The project form runs the project's own installation: refused where there is none.
    if (found === undefined) return refuseWithoutPackage(start, io, named);
    command = projectCommand(args);
  }
  if (hook.note !== undefined) io.err(`hook install: ${hook.note}`);
  return writeHookSettings(
    path,
    command,
    mergeClaudeCodeSettings,
    (e) => e instanceof ClaudeCodeSettingsError,
    { dryRun: values['dry-run'] === true, label: '' },
    io,
  );
}
