import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { lineDiff } from '../editor/lineDiff.js';
import { writeFileAtomic } from '../node/machineFiles.js';
import { UsageError, type CliIO } from './Command.js';
import { HOOK_PATH_OPTIONS } from './hookEnv.js';
import { hookClassifier, HookOptionError, parseHookOptions } from './hookRun.js';
import { LIVE_TOKEN_ENV } from './tokenNames.js';

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
 * agent's folder, not this one), which may refuse it (a {@link HookOptionError}). `--live`'s URL
 * is written without its token, which a command line would show to every local user: `note` then
 * says the agent needs it in its environment. Returns the words, each after a space, or what is
 * wrong in one line.
 *
 * @example
 * // in /home/me/repo, which holds rules.json:
 * hookArgs(['--rules', 'rules.json'], true, quote); // { args: ' --rules /home/me/repo/rules.json' }
 * hookArgs(['--rulez', 'x.json'], true, quote); // { error: 'unknown option --rulez (did you mean --rules?)' }
 */
function hookArgs(
  passed: string[],
  escalates: boolean,
  anchor: (path: string, option: string) => string,
): { args: string; note?: string } | { error: string } {
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
      if (token.name === 'live' && options.live !== undefined) {
        words.push(quote(options.live.url)); // the URL the hook takes (the last given), without its token
        continue;
      }
      words.push(
        HOOK_PATH_OPTIONS.includes(token.name) ? anchor(resolve(token.value), token.rawName) : quote(token.value),
      );
    }
    const args = words.map((w) => ` ${w}`).join('');
    if (options.live === undefined) return { args };
    return {
      args,
      note:
        `--live's token is not written into the hook command (a command line is readable by other local users): ` +
        `start the agent with ${LIVE_TOKEN_ENV} in its environment, each hook takes it from there`,
    };
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
  root: string,
): { args: string; note?: string } | { error: string } {
  const project = values.command === undefined && !values.user && values.settings === undefined;
  return hookArgs(passed, escalates, project ? projectAnchor(projectBase, root) : quote);
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
 * `root` is written from `base`, the shell word the command finds the project by
 * (`"$CLAUDE_PROJECT_DIR"`), so it works in every clone. A path outside it is refused: the shared
 * settings go to every clone and machine, where this machine's path means nothing.
 *
 * @example
 * // the project is /home/me/repo:
 * projectAnchor('"$CLAUDE_PROJECT_DIR"', '/home/me/repo')('/home/me/repo/rules.json', '--rules'); // '"$CLAUDE_PROJECT_DIR"/rules.json'
 * projectAnchor('"$CLAUDE_PROJECT_DIR"', '/home/me/repo')('/etc/rules.json', '--rules'); // throws a HookOptionError
 */
function projectAnchor(base: string, root: string): (path: string, option: string) => string {
  return (path, option) => {
    const inside = relative(root, path);
    if (inside === '') return base;
    if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside))
      throw new HookOptionError(
        `${option} ${path} is outside the project (${root}): the project settings are shared with every clone, ` +
          'so they hold only paths inside the project; give one inside it, or install for yourself with --user',
      );
    return `${base}/${quote(inside)}`;
  };
}

/**
 * The project folder from `start` up, found as the installed hook command finds it: the nearest
 * folder that has the package installed ({@link PROJECT_BIN}), never above the repository's root
 * (a folder with `.git`): a package installed above the repository belongs to another project.
 *
 * @example
 * findProjectRoot('/home/me/repo/src'); // '/home/me/repo' when /home/me/repo/node_modules holds the package
 */
export function findProjectRoot(start: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (existsSync(join(dir, PROJECT_BIN))) return dir;
    if (existsSync(join(dir, '.git')) || dirname(dir) === dir) return undefined;
  }
}

/**
 * Refuses the project form where {@link findProjectRoot} found no installation from `start` (this
 * folder, or the folder of the settings file `--settings` names): the hook would refuse every call
 * there. Says so in one line, and that nothing was written; exit code 2.
 */
export function refuseWithoutPackage(start: string, io: CliIO, settings?: string): number {
  const where = settings === undefined ? 'this project' : `the project of ${settings}`;
  io.err(
    `hook install: assistant-safety is not installed in ${where} (not in ${join(start, 'node_modules')} ` +
      'nor in a folder above it up to the repository root): run hook install from the project root after ' +
      'npm install --save-dev assistant-safety there (the hook would refuse every call without it), ' +
      'or install for yourself with --user; nothing was written',
  );
  return 2;
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
  // Our entries were there already with another command (the merge updates them in place): say so.
  const verb = /(^|[\s"'])hook (claude-code|codex|gemini|cursor)([\s"']|$)/m.test(before) ? 'updated' : 'added';
  io.out(`hook install: ${verb} the assistant-safety hooks${options.label} in ${path}\n  command: ${command}`);
  return 0;
}
