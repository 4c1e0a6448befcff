import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { lineDiff } from '../editor/lineDiff.js';
import { writeFileAtomic } from '../node/machineFiles.js';
import { UsageError, type CliIO } from './Command.js';

/*
 * What `hook install` does the same for every agent: its options, the check that the project has
 * the package installed, and the settings file read, merged, then shown as a diff or written
 * atomically (nothing written on any error). Each agent's file says where its settings live and
 * how its hook entries merge.
 */

/** A word for a shell command line, quoted when it needs to be. */
export const quote = (s: string) => (/^[A-Za-z0-9_./:@=,+-]+$/.test(s) ? s : `"${s.replace(/(["\\$`])/g, '\\$1')}"`);

/** Where the package's command sits in a project that installed it. */
export const PROJECT_BIN = 'node_modules/assistant-safety/dist/src/cli/bin.js';

/** `hook install`'s own options (before `--`) and the hook's options (after it, quoted for the command line). */
export function installArgs(argv: string[]) {
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
  if ([values.project, values.user, values.settings !== undefined].filter(Boolean).length > 1)
    throw new UsageError('give one of --project, --user, --settings');
  return { values, positionals, args: passed.map((a) => ` ${quote(a)}`).join('') };
}

/** Whether the project folder has the package installed; says so (and that nothing was written) when not. */
export function projectHasPackage(io: CliIO): boolean {
  if (existsSync(join(process.cwd(), PROJECT_BIN))) return true;
  io.err(
    `hook install: assistant-safety is not installed in this project (${join(process.cwd(), 'node_modules')}): ` +
      'run npm install --save-dev assistant-safety first (the hook would refuse every call without it), ' +
      'or install for yourself with --user; nothing was written',
  );
  return false;
}

/**
 * Reads the settings file at `path` (none yet is `{}`), merges the hook command into it with
 * `merge`, and prints the diff (`dryRun`) or writes it atomically. A file that cannot be read, is
 * not JSON or that `merge` refuses (an error `isMergeError` recognises) is exit 2, nothing written.
 */
export function writeHookSettings(
  path: string,
  command: string,
  merge: (settings: unknown, command: string) => { settings: unknown; changed: boolean },
  isMergeError: (e: unknown) => boolean,
  options: { dryRun: boolean; label: string },
  io: CliIO,
): number {
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
    merged = merge(settings, command);
  } catch (e) {
    if (isMergeError(e)) {
      io.err(`hook install: ${path}: ${(e as Error).message}; nothing was written`);
      return 2;
    }
    throw e;
  }
  const after = `${JSON.stringify(merged.settings, null, 2)}\n`;
  if (options.dryRun) {
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
  io.out(`hook install: added the assistant-safety hooks${options.label} to ${path}\n  command: ${command}`);
  return 0;
}
