import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ClaudeCodeSettingsError, mergeClaudeCodeSettings } from '../hooks/mergeClaudeCodeSettings.js';
import { lineDiff } from '../editor/lineDiff.js';
import { writeFileAtomic } from '../node/machineFiles.js';
import { UsageError, type CliIO } from './Command.js';

const quote = (s: string) => (/^[A-Za-z0-9_./:@=,+-]+$/.test(s) ? s : `"${s.replace(/(["\\$`])/g, '\\$1')}"`);

/** Where the package's command sits in a project that installed it. */
const PROJECT_BIN = 'node_modules/assistant-safety/dist/src/cli/bin.js';

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
  const passed = dashes === -1 ? [] : argv.slice(dashes + 1);
  const { values, positionals } = parseArgs({
    args: own,
    allowPositionals: true,
    options: {
      project: { type: 'boolean' },
      user: { type: 'boolean' },
      settings: { type: 'string' },
      'dry-run': { type: 'boolean' },
      command: { type: 'string' },
    },
  });
  if (positionals.length !== 1 || positionals[0] !== 'claude-code')
    throw new UsageError(
      `hook install supports claude-code, codex, gemini, cursor, got ${positionals.join(' ') || 'nothing'}`,
    );
  if ([values.project, values.user, values.settings !== undefined].filter(Boolean).length > 1)
    throw new UsageError('give one of --project, --user, --settings');
  const path = resolve(
    values.settings ??
      (values.user
        ? join(process.env.CLAUDE_CONFIG_DIR || join(homedir(), '.claude'), 'settings.json')
        : join(process.cwd(), '.claude', 'settings.json')),
  );
  const args = passed.map((a) => ` ${quote(a)}`).join('');
  let command: string;
  if (values.command !== undefined) command = `${values.command}${args}`;
  else if (values.user) command = ownCommand(args);
  else {
    if (values.settings === undefined && !existsSync(join(process.cwd(), PROJECT_BIN))) {
      io.err(
        `hook install: assistant-safety is not installed in this project (${join(process.cwd(), 'node_modules')}): ` +
          'run npm install --save-dev assistant-safety first (the hook would refuse every call without it), ' +
          'or install for yourself with --user; nothing was written',
      );
      return 2;
    }
    command = projectCommand(args);
  }

  let before = '';
  let settings: unknown = {};
  try {
    before = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
      io.err(`hook install: cannot read ${path}: ${(e as Error).message}`);
      return 2;
    }
  }
  if (before.trim() !== '') {
    try {
      settings = JSON.parse(before);
    } catch (e) {
      io.err(`hook install: ${path} is not JSON (${(e as Error).message}); nothing was written`);
      return 2;
    }
  }
  let merged;
  try {
    merged = mergeClaudeCodeSettings(settings, command);
  } catch (e) {
    if (e instanceof ClaudeCodeSettingsError) {
      io.err(`hook install: ${path}: ${e.message}; nothing was written`);
      return 2;
    }
    throw e;
  }
  const after = `${JSON.stringify(merged.settings, null, 2)}\n`;
  if (values['dry-run']) {
    io.out(`--- ${path}\n+++ ${path} (with the assistant-safety hooks)`);
    io.out(
      lineDiff(before, after)
        .map((l) => `${l.op}${l.text}`)
        .join('\n'),
    );
    return 0;
  }
  if (!merged.changed) {
    io.out(`hook install: ${path} already has the assistant-safety hooks`);
    return 0;
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, after);
  io.out(`hook install: added the assistant-safety hooks to ${path}\n  command: ${command}`);
  return 0;
}
