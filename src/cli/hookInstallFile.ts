import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { lineDiff } from '../editor/lineDiff.js';
import { writeFileAtomic } from '../node/machineFiles.js';
import { UsageError, type CliIO } from './Command.js';
import { HOOK_PATH_OPTIONS, hookClassifier, HookOptionError, parseHookOptions } from './hookRun.js';

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

/** `hook install`'s own options (before `--`) and the hook's options (after it, as given). */
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
  return { values, positionals, passed };
}

/**
 * The hook's options (after `--`) as they go on its command line: checked by the hook's own
 * parser ({@link parseHookOptions}), the rules file read and made into the hook's classifier,
 * since a wrong option in the settings would refuse every call. Each path (`--rules`,
 * `--state-dir`, `--record`) is made absolute, then written by `anchor` (the hook runs in the
 * agent's folder, not this one). Returns the words, each after a space, or what is wrong in one line.
 *
 * @example
 * // in /home/me/repo, which holds rules.json:
 * hookArgs(['--rules', 'rules.json'], true, quote); // { args: ' --rules /home/me/repo/rules.json' }
 * hookArgs(['--rulez', 'x.json'], true, quote); // { error: 'unknown option --rulez (did you mean --rules?)' }
 */
function hookArgs(
  passed: string[],
  escalates: boolean,
  anchor: (path: string) => string,
): { args: string } | { error: string } {
  try {
    const { options, tokens } = parseHookOptions(passed, escalates);
    const given = tokens.flatMap((t) => (t.kind === 'option' ? [t] : []));
    if (options.rules !== undefined) {
      try {
        hookClassifier(options.rules); // what each hook event does with them
      } catch (e) {
        return { error: `--rules ${given.findLast((t) => t.name === 'rules')?.value}: ${(e as Error).message}` };
      }
    }
    const words: string[] = [];
    for (const token of given) {
      words.push(quote(token.rawName)); // `--rules=x` becomes `--rules x`
      if (token.value === undefined) continue;
      words.push(HOOK_PATH_OPTIONS.includes(token.name) ? anchor(resolve(token.value)) : quote(token.value));
    }
    return { args: words.map((w) => ` ${w}`).join('') };
  } catch (e) {
    if (e instanceof HookOptionError) return { error: e.message };
    throw e;
  }
}

/**
 * {@link hookArgs} as `hook install` writes them: in the shared project settings (no `--command`,
 * `--user` or `--settings`) a path in the project is written from `projectBase`, the shell word the
 * installed command finds the project by; elsewhere it is absolute (settings named with
 * `--settings` may belong to another project).
 *
 * @example
 * installedHookArgs(values, ['--rules', 'rules.json'], true, '"$CLAUDE_PROJECT_DIR"');
 */
export function installedHookArgs(
  values: { command?: string | undefined; user?: boolean | undefined; settings?: string | undefined },
  passed: string[],
  escalates: boolean,
  projectBase: string,
): { args: string } | { error: string } {
  const project = values.command === undefined && !values.user && values.settings === undefined;
  return hookArgs(passed, escalates, project ? projectAnchor(projectBase) : quote);
}

/**
 * Says why the hook's options were refused (one line, exit 2): nothing is written.
 *
 * @example
 * return refuseHookOptions('claude-code', 'unknown option --rulez (did you mean --rules?)', io);
 */
export function refuseHookOptions(agent: string, error: string, io: CliIO): number {
  io.err(`hook install: the options for hook ${agent} (after --): ${error}; nothing was written`);
  return 2;
}

/**
 * An anchor for {@link hookArgs} in a project's shared settings: a path inside the project folder
 * (this one) is written from `base`, the shell word the command finds the project by
 * (`"$CLAUDE_PROJECT_DIR"`), so it works in every clone; one outside it stays absolute.
 *
 * @example
 * // in /home/me/repo:
 * projectAnchor('"$CLAUDE_PROJECT_DIR"')('/home/me/repo/rules.json'); // '"$CLAUDE_PROJECT_DIR"/rules.json'
 * projectAnchor('"$CLAUDE_PROJECT_DIR"')('/etc/rules.json'); // '/etc/rules.json'
 */
function projectAnchor(base: string): (path: string) => string {
  return (path) => {
    const inside = relative(process.cwd(), path);
    if (inside === '') return base;
    const outside = inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside);
    return outside ? quote(path) : `${base}/${quote(inside)}`;
  };
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
