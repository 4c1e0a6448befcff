/*
 * The shell table of the coding-agent classifier: the commands that only read, how each one's
 * arguments are checked, which arguments name the files it reads, and which uses are
 * project-wide checks (tests, type checks, builds, linters, `git diff`/`git status`).
 */

import { awkFiles, awkReads } from './awkCommand.js';
import { blackChecks, blackReads, cargoFmtChecks, gofmtReads, ruffReads } from './formatterChecks.js';
import { sedReads, sedScripts } from './sedCommand.js';
import { always, noArgs, runner, without, withAny, type ArgsCheck } from './shellOptions.js';

/** git subcommands that only read (with their argument checks). */
const GIT: Record<string, ArgsCheck> = {
  status: always,
  diff: without('--output', '--ext-diff'),
  log: without('--output', '--ext-diff'),
  show: without('--output', '--ext-diff'),
  blame: always,
  'rev-parse': always,
  'rev-list': without('--output', '--ext-diff'),
  'ls-files': always,
  'ls-tree': always,
  'cat-file': always,
  grep: without('-O', '--open-files-in-pager'),
  describe: always,
  shortlog: always,
  whatchanged: always,
  reflog: (args) => args.length === 0 || args[0] === 'show' || args[0]!.startsWith('-'),
  branch: (args) =>
    args.every((a) => ['-a', '-r', '-v', '-vv', '--list', '--all', '--remotes', '--show-current'].includes(a)),
  tag: (args) => args.every((a) => ['-l', '--list', '-n'].includes(a)),
  remote: (args) => args.every((a) => a === '-v' || a === '--verbose'),
  stash: (args) => args[0] === 'list' || args[0] === 'show',
  config: withAny('--get', '--get-all', '--list', '-l', '--get-regexp'),
  worktree: (args) =>
    args[0] === 'list' && args.slice(1).every((a) => ['-v', '--verbose', '--porcelain', '-z'].includes(a)),
};

/** git options before the subcommand that take a value. `-c` is not here: it can set a pager or a hook. */
const GIT_VALUE_OPTIONS = new Set(['-C', '--git-dir', '--work-tree']);
const GIT_FLAG_OPTIONS = new Set(['--no-pager', '-P', '--no-optional-locks', '--bare', '--literal-pathspecs']);

/**
 * Indexes of the positional arguments (not options, not option values): `short` lists the
 * one-letter options that take a value (`-n 20`, `-n20`, `-rnA 3`), `long` the long ones given
 * apart from their value (`--lines 20`; `--lines=20` is one word anyway).
 */
export function positionals(args: readonly string[], short = '', long: readonly string[] = []): number[] {
  const out: number[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      for (let j = i + 1; j < args.length; j++) out.push(j);
      break;
    }
    if (a.startsWith('--')) {
      if (!a.includes('=') && long.includes(a)) i++;
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let k = 1; k < a.length; k++)
        if (short.includes(a[k]!)) {
          if (k === a.length - 1) i++;
          break;
        }
      continue;
    }
    if (a !== '-') out.push(i);
  }
  return out;
}

const filesOf =
  (short = '', long: readonly string[] = []) =>
  (args: readonly string[]) =>
    positionals(args, short, long);

const GREP_LONG = [
  '--regexp',
  '--file',
  '--max-count',
  '--after-context',
  '--before-context',
  '--context',
  '--include',
  '--exclude',
  '--exclude-dir',
  '--label',
  '--devices',
  '--directories',
  '--binary-files',
];
const RG_LONG = [
  ...GREP_LONG,
  '--glob',
  '--iglob',
  '--type',
  '--type-not',
  '--type-add',
  '--max-columns',
  '--threads',
  '--encoding',
  '--replace',
  '--max-depth',
  '--sort',
  '--sortr',
  '--ignore-file',
  '--max-filesize',
  '--context-separator',
  '--field-match-separator',
  '--path-separator',
  '--colors',
];

/** grep-like: the first positional is the pattern unless one came with `-e`/`-f`; the rest are paths. */
const grepFiles =
  (short: string, long: readonly string[]) =>
  (args: readonly string[]): number[] => {
    const p = positionals(args, short, long);
    const patternGiven = args.some(
      (a) => /^-[A-Za-z]*[ef]/.test(a) || a.startsWith('--regexp') || a.startsWith('--file'),
    );
    return patternGiven ? p : p.slice(1);
  };

/** A word git reads as a revision, not a path: `HEAD~1`, `main`, `origin/x`, a hash, a range. */
function isRevision(word: string): boolean {
  return (
    /^(HEAD|FETCH_HEAD|ORIG_HEAD|MERGE_HEAD|@)?([~^][0-9]*)*$/.test(word) ||
    /^[0-9a-f]{7,40}([~^][0-9]*)*$/.test(word) ||
    /^(main|master|develop|trunk)([~^][0-9]*)*$/.test(word) ||
    /^(origin|upstream)\//.test(word) ||
    word.includes('..') ||
    word.includes('@{')
  );
}

/** git's global options, then the subcommand: its index and the `-C` folder, or undefined for an option we do not know. */
function gitSplit(args: readonly string[]): { sub: number; dir?: string } | undefined {
  let i = 0;
  let dir: string | undefined;
  while (i < args.length && args[i]!.startsWith('-')) {
    const a = args[i]!;
    if (GIT_VALUE_OPTIONS.has(a)) {
      if (a === '-C') dir = dir === undefined ? args[i + 1] : `${dir}/${args[i + 1]}`;
      else dir = '\0'; // --git-dir / --work-tree: paths are no longer the cwd's
      i += 2;
    } else if (GIT_FLAG_OPTIONS.has(a)) i += 1;
    else if ([...GIT_VALUE_OPTIONS].some((o) => a.startsWith(`${o}=`))) {
      dir = '\0';
      i += 1;
    } else return undefined;
  }
  return { sub: i, ...(dir !== undefined && { dir }) };
}

/**
 * `git add` and `git commit` (not `--amend`, which rewrites what may be shared): they record the
 * working tree in the local repository and change no file in it, so the coding profile takes them
 * as state-only writes. What leaves the machine (`push`) stays a write.
 */
export function gitRecords(args: readonly string[]): boolean {
  const split = gitSplit(args);
  const sub = split && args[split.sub];
  if (sub === 'add') return true;
  return sub === 'commit' && !args.slice(split!.sub + 1).some((a) => a === '--amend' || a.startsWith('--amend='));
}

function gitReads(args: readonly string[]): boolean {
  const split = gitSplit(args);
  const sub = split && args[split.sub];
  const check = sub === undefined ? undefined : GIT[sub];
  return check !== undefined && check(args.slice(split!.sub + 1));
}

/** The files a read-only git command shows, and whether it is project-wide (`git diff`, `git status` with no paths). */
export function gitFacts(args: readonly string[]): { files: string[]; check?: true; dir?: string } {
  const split = gitSplit(args)!;
  const sub = args[split.sub];
  const rest = args.slice(split.sub + 1);
  const dir = split.dir === undefined ? {} : { dir: split.dir };
  const dashes = rest.indexOf('--');
  const before = positionals(dashes === -1 ? rest : rest.slice(0, dashes)).map((i) => rest[i]!);
  const after = dashes === -1 ? [] : rest.slice(dashes + 1);
  if (sub === 'show') {
    const files = before.flatMap((w) => {
      const m = /^[^:]*:(.+)$/.exec(w);
      if (m) return [m[1]!];
      return isRevision(w) ? [] : [w];
    });
    return { files: [...files, ...after], ...dir };
  }
  if (sub === 'diff' && rest.includes('--no-index')) return { files: [...before, ...after], ...dir };
  if (sub === 'diff' || sub === 'status') {
    const paths = [...(sub === 'status' ? before : before.filter((w) => !isRevision(w))), ...after];
    return paths.length ? { files: paths, ...dir } : { files: [], check: true, ...dir };
  }
  if (sub === 'blame') return { files: [...before.filter((w) => !isRevision(w)), ...after], ...dir };
  return { files: [], ...dir };
}

/** Script names that are project-wide checks: test, lint, build, typecheck, check (and `test:*`, `lint:*`, ...), never a fix or a watch. */
function checkScript(name: string | undefined): boolean {
  if (name === undefined) return false;
  if (name === 'format:check' || name === 'prettier:check') return true;
  return (
    /^(test|t|lint|build|typecheck|type-check|check|tsc)(:[\w:.-]+)?$/.test(name) &&
    !/(fix|write|update|watch|dev|snap|format)/.test(name.slice(name.indexOf(':') + 1 || name.length))
  );
}

/** Package-manager commands that only read or run the project's own checks: `npm test`, `pnpm lint`, `yarn vitest run`. */
function packageManager(name: 'npm' | 'pnpm' | 'yarn') {
  const judge = (args: readonly string[]): { read: boolean; check: boolean } => {
    const [sub, script, ...rest] = args;
    if (sub === 'test' || sub === 't' || sub === 'tst')
      return { read: runner()(args.slice(1)), check: runner()(args.slice(1)) };
    if ((sub === 'run' || sub === 'run-script') && checkScript(script)) {
      const ok = runner()(rest);
      return { read: ok, check: ok };
    }
    if (['ls', 'list', 'view', 'info', 'outdated', 'explain', 'why'].includes(sub ?? ''))
      return { read: true, check: false };
    if (name !== 'npm') {
      if (checkScript(sub) && sub !== 't') return { read: runner()(args.slice(1)), check: runner()(args.slice(1)) };
      if (sub === 'exec' || sub === 'dlx') return delegate(args.slice(1));
      if (sub !== undefined && RUNNERS.has(sub)) return delegate(args);
    }
    return { read: false, check: false };
  };
  return r(
    (args) => judge(args).read,
    undefined,
    (args) => judge(args).check,
  );
}

/** The tools `npx`/`pnpm exec`/`yarn` may run as reads: test runners and checkers. */
const RUNNERS = new Set(['vitest', 'jest', 'tsc', 'eslint', 'prettier', 'pytest', 'mypy', 'ruff']);

function delegate(args: readonly string[]): { read: boolean; check: boolean } {
  const rest = args.filter((a) => a !== '--yes' && a !== '-y' && a !== '--no' && a !== '--no-install');
  const [tool, ...toolArgs] = rest;
  if (tool === undefined || tool.startsWith('-') || !Object.hasOwn(COMMANDS, tool))
    return { read: false, check: false };
  const rule = COMMANDS[tool]!;
  const read = rule.check(toolArgs);
  return { read, check: read && rule.project !== undefined && rule.project(toolArgs) };
}

interface CommandRule {
  check: ArgsCheck;
  /** No argument can make it write, so arguments holding expansions (`$HOME`, globs) are harmless. */
  anyArgs?: true;
  /** Indexes of the arguments naming the files it reads. */
  files?: (args: readonly string[]) => number[];
  /** Used read-only, a project-wide check (tests, type check, build, linter). */
  project?: ArgsCheck;
}

const r = (
  check: ArgsCheck,
  anyArgs?: true,
  project?: ArgsCheck,
  files?: (args: readonly string[]) => number[],
): CommandRule => ({
  check,
  ...(anyArgs && { anyArgs }),
  ...(project && { project }),
  ...(files && { files }),
});
const notVersion: ArgsCheck = (args) =>
  !args.some((a) => ['--version', '-v', '-V', '--help', '-h', '--showConfig'].includes(a));

/**
 * Commands that only read, each with the check its arguments must pass, the files it reads and
 * whether it is a project-wide check. Anything not here (or failing its check) is a write.
 */
export const COMMANDS: Record<string, CommandRule> = {
  ls: r(always, true),
  cat: r(always, true, undefined, filesOf()),
  head: r(always, true, undefined, filesOf('nc', ['--lines', '--bytes'])),
  tail: r(always, true, undefined, filesOf('ncs', ['--lines', '--bytes', '--pid', '--sleep-interval'])),
  wc: r(always, true, undefined, filesOf()),
  pwd: r(always, true),
  echo: r(always, true),
  printf: r(without('-v')),
  grep: r(always, true, undefined, grepFiles('efmABCdD', GREP_LONG)),
  egrep: r(always, true, undefined, grepFiles('efmABCdD', GREP_LONG)),
  fgrep: r(always, true, undefined, grepFiles('efmABCdD', GREP_LONG)),
  rg: r(without('--pre'), undefined, undefined, grepFiles('efgtTmABCMjErd', RG_LONG)),
  ag: r(always, true),
  sed: r(sedReads, undefined, undefined, (args) => sedScripts(args)?.files ?? []),
  awk: r(awkReads, undefined, undefined, awkFiles),
  gawk: r(awkReads, undefined, undefined, awkFiles),
  mawk: r(awkReads, undefined, undefined, awkFiles),
  nawk: r(awkReads, undefined, undefined, awkFiles),
  which: r(always, true),
  type: r(always, true),
  file: r(without('-C', '--compile')),
  stat: r(always, true),
  du: r(always, true),
  df: r(always, true),
  tree: r(without('-o')),
  diff: r(
    always,
    true,
    undefined,
    filesOf('UCxXIFLSW', [
      '--label',
      '--exclude',
      '--exclude-from',
      '--ignore-matching-lines',
      '--unified',
      '--context',
    ]),
  ),
  cmp: r(always, true, undefined, (args) => positionals(args, 'in').slice(0, 2)),
  sort: r(without('-o', '--output', '--compress-program')),
  uniq: r((args) => args.filter((a) => !a.startsWith('-')).length <= 1),
  cut: r(always, true),
  tr: r(always, true),
  nl: r(always, true, undefined, filesOf('bdfhilnsvw')),
  basename: r(always, true),
  dirname: r(always, true),
  realpath: r(always, true),
  readlink: r(always, true),
  date: r(without('-s', '--set')),
  whoami: r(always, true),
  id: r(always, true),
  uname: r(always, true),
  env: r(noArgs),
  printenv: r(always, true),
  hostname: r(noArgs),
  true: r(always, true),
  false: r(always, true),
  test: r(always, true),
  '[': r(always, true),
  jq: r(always, true),
  column: r(always, true),
  od: r(always, true),
  hexdump: r(always, true),
  md5sum: r(always, true),
  sha1sum: r(always, true),
  sha256sum: r(always, true),
  shasum: r(always, true),
  ps: r(always, true),
  seq: r(always, true),
  sleep: r(always, true),
  xargs: r(xargsReads),
  less: r(without('-o', '-O', '--log-file', '--LOG-FILE'), undefined, undefined, filesOf('bhjpPtTxyz')),
  more: r(always, true, undefined, filesOf()),
  find: r(without('-delete', '-exec', '-execdir', '-ok', '-okdir', '-fprint', '-fprint0', '-fprintf', '-fls')),
  git: r(gitReads),
  npm: packageManager('npm'),
  pnpm: packageManager('pnpm'),
  yarn: packageManager('yarn'),
  npx: r(
    (args) => delegate(args).read,
    undefined,
    (args) => delegate(args).check,
  ),
  vitest: r(
    runner((args) => !['watch', 'dev', 'init'].includes(args[0] ?? '')),
    undefined,
    (args) => !['bench', 'list'].includes(args[0] ?? '') && notVersion(args),
  ),
  jest: r(runner(without('--init')), undefined, notVersion),
  pytest: r(runner(), undefined, notVersion),
  mypy: r(runner(), undefined, notVersion),
  ruff: r(ruffReads, undefined, always),
  tsc: r(runner(without('--init')), undefined, notVersion),
  eslint: r(runner(without('-o', '--output-file', '--init', '--cache-location')), undefined, notVersion),
  // `--cache-location` writes the cache where the agent says.
  prettier: r(
    runner((args) => withAny('--check', '-c', '--list-different', '-l')(args) && without('--cache-location')(args)),
    undefined,
    always,
  ),
  go: r(
    (args) => ['test', 'vet', 'build', 'version', 'env', 'list'].includes(args[0] ?? '') && goFlagsRead(args.slice(1)),
    undefined,
    (args) => ['test', 'vet', 'build'].includes(args[0] ?? ''),
  ),
  cargo: r(
    (args) =>
      (['test', 'check', 'clippy', 'build', 'tree', 'metadata'].includes(args[0] ?? '') && runner()(args.slice(1))) ||
      (args[0] === 'fmt' && cargoFmtChecks(args.slice(1))),
    undefined,
    (args) => ['test', 'check', 'clippy', 'build', 'fmt'].includes(args[0] ?? ''),
  ),
  gofmt: r(gofmtReads),
  black: r(blackReads, undefined, blackChecks),
  gh: r(ghReads),
  uv: r(
    (args) => uvRun(args).read,
    undefined,
    (args) => uvRun(args).check,
  ),
  bun: r(bunChecks, undefined, always),
  make: r(
    (args) =>
      args.some((a) => ['test', 'check', 'lint'].includes(a)) &&
      args.every((a) => ['test', 'check', 'lint', '-k', '-s'].includes(a) || /^-j[0-9]*$/.test(a)),
    undefined,
    always,
  ),
  node: r((args) => args.length === 1 && (args[0] === '--version' || args[0] === '-v')),
  python: r(pythonReads, undefined, pythonCheck),
  python3: r(pythonReads, undefined, pythonCheck),
};

/**
 * `xargs [options] COMMAND ARGS...`: the words it reads on stdin become arguments of COMMAND, so it
 * reads only when COMMAND is one no argument can make write (`grep`, `wc`, `cat`), given arguments
 * its own check passes. With no COMMAND it runs `echo`.
 */
function xargsReads(args: readonly string[]): boolean {
  let i = 0;
  for (; i < args.length && args[i]!.startsWith('-'); i++) {
    const a = args[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (/^-[0prtx]+$/.test(a) || ['--null', '--no-run-if-empty', '--verbose', '--exit'].includes(a)) continue;
    if (/^-[nLPsdEa]$/.test(a) || a === '-I')
      i++; // the value is the next word
    else if (
      !/^-[nLPsdEaIiel]./.test(a) &&
      !/^--(max-args|max-lines|max-procs|max-chars|delimiter|eof|arg-file|replace)=/.test(a)
    )
      return false;
  }
  const command = args[i];
  if (command === undefined) return true;
  const rule = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  return rule?.anyArgs === true && rule.check(args.slice(i + 1));
}

/**
 * The GitHub CLI's reads: `gh pr view|list|diff|checks|status`, `gh issue view|list|status`,
 * `gh run view|list`, `gh repo view`, `gh release view|list`, `gh workflow view|list`. `--web`
 * (`-w`) opens a browser, a program, so it is a write; `gh pr create`, `gh pr merge`, `gh api`
 * and the rest are writes.
 */
const GH_READS: Record<string, readonly string[]> = {
  pr: ['view', 'list', 'diff', 'checks', 'status'],
  issue: ['view', 'list', 'status'],
  run: ['view', 'list'],
  repo: ['view'],
  release: ['view', 'list'],
  workflow: ['view', 'list'],
};
function ghReads(args: readonly string[]): boolean {
  const [group, sub] = args;
  return (
    group !== undefined &&
    Object.hasOwn(GH_READS, group) &&
    GH_READS[group]!.includes(sub ?? '') &&
    without('-w', '--web')(args.slice(2))
  );
}

/** `uv run`'s options that change nothing but which environment it syncs: flags, and those that take a value. */
const UV_FLAGS = new Set([
  '--frozen',
  '--locked',
  '--no-sync',
  '--offline',
  '--all-extras',
  '--dev',
  '--no-dev',
  '--all-groups',
  '--no-progress',
  '-q',
  '--quiet',
  '-v',
  '--verbose',
]);
const UV_VALUES = new Set(['--extra', '--group', '--only-group', '--package', '--python', '-p']);
/** The Python tools `uv run` may run as reads, judged by their own rules. */
const UV_TOOLS = new Set(['pytest', 'mypy', 'ruff', 'black', 'python', 'python3']);

/**
 * `uv run [options] TOOL ARGS...` (or `uv run -m MODULE`): the project's environment synced, then
 * TOOL, a read or a check when TOOL so called is one. An option that adds what the project does
 * not declare (`--with`) or sets variables (`--env-file`) is a write.
 */
function uvRun(args: readonly string[]): { read: boolean; check: boolean } {
  if (args[0] !== 'run') return { read: false, check: false };
  let i = 1;
  for (; i < args.length && args[i]!.startsWith('-'); i++) {
    const a = args[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (a === '-m' || a === '--module') return delegate(['python', '-m', ...args.slice(i + 1)]);
    const name = a.split('=')[0]!;
    if (UV_VALUES.has(name)) {
      if (a === name) i++;
    } else if (!UV_FLAGS.has(a)) return { read: false, check: false };
  }
  return UV_TOOLS.has(args[i] ?? '') ? delegate(args.slice(i)) : { read: false, check: false };
}

/**
 * `bun test` (bun's own test runner) in check mode, or `bun run` of a check script (`bun run
 * lint`): none with `-u`/`--update-snapshots`, `--watch`, nor a report or coverage written where
 * the agent says (`--reporter-outfile`, `--coverage-dir`).
 */
function bunChecks(args: readonly string[]): boolean {
  const [sub, script] = args;
  const rest = without('--update-snapshots', '--reporter-outfile', '--coverage-dir');
  if (sub === 'test') return runner(rest)(args.slice(1));
  return sub === 'run' && checkScript(script) && runner(rest)(args.slice(2));
}

/**
 * Go's flags are whole words after one or two dashes (`-run`, `-timeout=30s`), never bundles of
 * letters: none of them may be an update, a fix, a watch or `go env -w`.
 */
const GO_WRITES = new Set(['u', 'w', 'update', 'updateSnapshot', 'fix', 'write', 'watch', 'watchAll']);
const goFlagsRead: ArgsCheck = (args) =>
  !args.some((a) => /^--?[A-Za-z]/.test(a) && GO_WRITES.has(a.replace(/^--?/, '').split('=')[0]!));

function pythonReads(args: readonly string[]): boolean {
  if (args.length === 1 && args[0] === '--version') return true;
  return args[0] === '-m' && ['pytest', 'mypy', 'unittest'].includes(args[1] ?? '') && runner()(args.slice(2));
}
function pythonCheck(args: readonly string[]): boolean {
  return args[0] === '-m';
}

/** Variables a command may be given (`CI=1 npm test`) without changing what it does to files. */
const HARMLESS_VARIABLES = new Set([
  'CI',
  'NODE_ENV',
  'FORCE_COLOR',
  'NO_COLOR',
  'TERM',
  'LANG',
  'TZ',
  'COLUMNS',
  'RUST_BACKTRACE',
  'PYTHONDONTWRITEBYTECODE',
  'PYTHONUNBUFFERED',
]);
export const harmlessAssignment = (a: string) => {
  const name = a.slice(0, a.indexOf('='));
  return HARMLESS_VARIABLES.has(name) || name.startsWith('LC_');
};
