import { parseShellCommand, type ShellCommand } from './parseShellCommand.js';

/** How a shell command line was judged: a read only when every simple command in it is a known read-only one. */
export interface ShellClassification {
  kind: 'read' | 'write';
  /** Why, in words: the command that made it a write, or that every part is read-only. */
  reason: string;
}

/** A check on a command's arguments: true when the command, so called, only reads. */
type ArgsCheck = (args: readonly string[]) => boolean;

const always: ArgsCheck = () => true;
/** None of the given options (`-i`, `--in-place`, `--in-place=...`, `-ni` bundles for one-letter ones). */
const without =
  (...options: string[]): ArgsCheck =>
  (args) =>
    !args.some((a) =>
      options.some((o) =>
        o.startsWith('--')
          ? a === o || a.startsWith(`${o}=`)
          : a === o || (/^-[A-Za-z]+$/.test(a) && !a.startsWith('--') && a.includes(o.slice(1))),
      ),
    );
/** Only when called with one of these arguments somewhere. */
const withAny =
  (...options: string[]): ArgsCheck =>
  (args) =>
    args.some((a) => options.some((o) => a === o || a.startsWith(`${o}=`)));
const noArgs: ArgsCheck = (args) => args.length === 0;
const both =
  (...checks: ArgsCheck[]): ArgsCheck =>
  (args) =>
    checks.every((c) => c(args));

/** git subcommands that only read (with their argument checks). */
const GIT: Record<string, ArgsCheck> = {
  status: always,
  diff: without('--output', '--ext-diff'),
  log: without('--output', '--ext-diff'),
  show: without('--output', '--ext-diff'),
  blame: always,
  'rev-parse': always,
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
};

/** git options before the subcommand that take a value. `-c` is not here: it can set a pager or a hook. */
const GIT_VALUE_OPTIONS = new Set(['-C', '--git-dir', '--work-tree']);
const GIT_FLAG_OPTIONS = new Set(['--no-pager', '-P', '--no-optional-locks', '--bare', '--literal-pathspecs']);

function gitReads(args: readonly string[]): boolean {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) {
    const a = args[i]!;
    if (GIT_VALUE_OPTIONS.has(a)) i += 2;
    else if (GIT_FLAG_OPTIONS.has(a) || [...GIT_VALUE_OPTIONS].some((o) => a.startsWith(`${o}=`))) i += 1;
    else return false;
  }
  const sub = args[i];
  const check = sub === undefined ? undefined : GIT[sub];
  return check !== undefined && check(args.slice(i + 1));
}

/** Test runners and checkers in check mode (no `--fix`, `--write`, `-u`). */
const runner = (needs: ArgsCheck = always) =>
  both(needs, without('--fix', '--write', '-w', '-u', '--updateSnapshot', '--update', '--watch'));

function npmReads(args: readonly string[]): boolean {
  const [sub, script, ...rest] = args;
  if (sub === 'test' || sub === 't') return true;
  if (sub === 'ls' || sub === 'list' || sub === 'view' || sub === 'outdated' || sub === 'explain') return true;
  if ((sub === 'run' || sub === 'run-script') && script !== undefined)
    return ['test', 'lint', 'typecheck', 'check', 'format:check', 'lint:check'].includes(script) && runner()(rest);
  return false;
}

/** `npx tool ...`: the tool's own rule (npx's `--yes`/`--no` and `-p pkg` aside). */
function npxReads(args: readonly string[]): boolean {
  const rest = args.filter((a) => a !== '--yes' && a !== '-y' && a !== '--no' && a !== '--no-install');
  const [tool, ...toolArgs] = rest;
  if (tool === undefined || tool.startsWith('-')) return false;
  const rule = COMMANDS[tool];
  return rule !== undefined && rule.check(toolArgs);
}

interface CommandRule {
  check: ArgsCheck;
  /** No argument can make it write, so arguments holding expansions (`$HOME`, globs) are harmless. */
  anyArgs?: true;
}

const r = (check: ArgsCheck, anyArgs?: true): CommandRule => (anyArgs ? { check, anyArgs } : { check });

/**
 * Commands that only read, each with the check its arguments must pass. Anything not here
 * (or failing its check) is a write.
 */
const COMMANDS: Record<string, CommandRule> = {
  ls: r(always, true),
  cat: r(always, true),
  head: r(always, true),
  tail: r(always, true),
  wc: r(always, true),
  pwd: r(always, true),
  echo: r(always, true),
  printf: r(without('-v')),
  grep: r(always, true),
  egrep: r(always, true),
  fgrep: r(always, true),
  rg: r(without('--pre')),
  ag: r(always, true),
  which: r(always, true),
  type: r(always, true),
  file: r(always, true),
  stat: r(always, true),
  du: r(always, true),
  df: r(always, true),
  tree: r(without('-o')),
  diff: r(always, true),
  cmp: r(always, true),
  sort: r(without('-o', '--output')),
  uniq: r((args) => args.filter((a) => !a.startsWith('-')).length <= 1),
  cut: r(always, true),
  tr: r(always, true),
  nl: r(always, true),
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
  less: r(always, true),
  more: r(always, true),
  find: r(without('-delete', '-exec', '-execdir', '-ok', '-okdir', '-fprint', '-fprint0', '-fprintf', '-fls')),
  git: r(gitReads),
  npm: r(npmReads),
  npx: r(npxReads),
  vitest: r(runner((args) => args[0] === 'run' || args.includes('--run'))),
  jest: r(runner(without('--watchAll'))),
  pytest: r(runner()),
  tsc: r(runner(withAny('--noEmit'))),
  eslint: r(runner()),
  prettier: r(runner(withAny('--check', '-c', '--list-different', '-l'))),
  go: r((args) => ['test', 'vet', 'version', 'env', 'list'].includes(args[0] ?? '') && runner()(args.slice(1))),
  cargo: r(
    (args) => ['test', 'check', 'clippy', 'tree', 'metadata'].includes(args[0] ?? '') && runner()(args.slice(1)),
  ),
  node: r((args) => args.length === 1 && (args[0] === '--version' || args[0] === '-v')),
  python: r((args) => args.length === 1 && args[0] === '--version'),
  python3: r((args) => args.length === 1 && args[0] === '--version'),
};

/** Output redirections that write nowhere: `/dev/null`, or a file descriptor duplicated or closed. */
function harmlessRedirect(op: string, target: string): boolean {
  if (op === '<' || op === '<<' || op === '<<-' || op === '<<<') return true;
  if ((op === '>&' || op === '<&') && /^([0-9]+|-)$/.test(target)) return true;
  return target === '/dev/null';
}

function judge(command: ShellCommand): string | undefined {
  for (const redirect of command.redirects) {
    if (!harmlessRedirect(redirect.op, redirect.target))
      return `it writes to ${JSON.stringify(redirect.target)} (${redirect.fd ?? ''}${redirect.op})`;
  }
  if (command.assignments.length) return `it sets ${command.assignments[0]!.split('=')[0]} for a command`;
  const [name, ...args] = command.argv;
  if (name === undefined) return undefined;
  if (command.expanding.includes(0)) return `its command name ${JSON.stringify(name)} is expanded by the shell`;
  const rule = Object.hasOwn(COMMANDS, name) ? COMMANDS[name]! : undefined;
  if (!rule) return `${JSON.stringify(name)} is not a known read-only command`;
  if (!rule.anyArgs && command.expanding.length)
    return `${JSON.stringify(name)} has arguments the shell expands, which could change what it does`;
  if (!rule.check(args)) return `${JSON.stringify([name, ...args].join(' '))} is not a read-only use of ${name}`;
  return undefined;
}

/**
 * Classifies a shell command line: a read only when every simple command in it (pipelines,
 * `&&`/`||`/`;` lists, groups) is a known read-only command used read-only, with no output
 * redirected to a file; anything else, or anything the parser cannot judge (command
 * substitution, control keywords), is a write.
 *
 * @example
 * classifyShellCommand('ls | grep x').kind;        // 'read'
 * classifyShellCommand('rm -rf build && ls').kind; // 'write'
 * classifyShellCommand('git log > out.txt').kind;  // 'write'
 */
export function classifyShellCommand(line: string): ShellClassification {
  if (typeof line !== 'string' || line.trim() === '') return { kind: 'write', reason: 'no command to judge' };
  const parsed = parseShellCommand(line);
  if (parsed.unsupported !== undefined)
    return { kind: 'write', reason: `the command uses ${parsed.unsupported}, which only running it can resolve` };
  if (parsed.commands.length === 0) return { kind: 'write', reason: 'no command to judge' };
  for (const command of parsed.commands) {
    const why = judge(command);
    if (why !== undefined) return { kind: 'write', reason: why };
  }
  return { kind: 'read', reason: 'every command in it is a known read-only command' };
}
