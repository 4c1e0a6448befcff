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

/** This installation's hook command: the running node and the built bin, absolute paths. */
function ownCommand(): string {
  const bin = fileURLToPath(new URL('./bin.js', import.meta.url));
  if (!existsSync(bin)) throw new UsageError(`cannot find the built command at ${bin}; pass --command`);
  return `${quote(process.execPath)} ${quote(bin)} hook claude-code`;
}

/** `hook install claude-code`: merges the hook entries into a settings file (atomically), or prints the diff. */
export async function runHookInstall(argv: string[], io: CliIO): Promise<number> {
  const dashes = argv.indexOf('--');
  const own = dashes === -1 ? argv : argv.slice(0, dashes);
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
    throw new UsageError(`hook install supports claude-code, got ${positionals.join(' ') || 'nothing'}`);
  if ([values.project, values.user, values.settings !== undefined].filter(Boolean).length > 1)
    throw new UsageError('give one of --project, --user, --settings');
  const path = resolve(
    values.settings ??
      (values.user
        ? join(process.env.CLAUDE_CONFIG_DIR || join(homedir(), '.claude'), 'settings.json')
        : join(process.cwd(), '.claude', 'settings.json')),
  );
  const command = [values.command ?? ownCommand(), ...passed.map(quote)].join(' ');

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
