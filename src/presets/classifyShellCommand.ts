import { parseShellCommand, type ShellCommand } from './parseShellCommand.js';
import { fileTarget } from './fileTarget.js';
import type { ShellRules } from './ShellRules.js';
import { COMMANDS, gitFacts, gitRecords, harmlessAssignment, positionals } from './shellCommandTable.js';
import { runner } from './shellOptions.js';
import { sedInPlaceFiles } from './sedCommand.js';

/**
 * How a shell command line was judged: a read only when every simple command in it is a known
 * read-only one. The whole line is the strongest of its parts: a write to unknown places (no
 * targets) over a write to named files (a redirection, `tee`) over a read.
 */
export interface ShellClassification {
  kind: 'read' | 'write';
  /** Why, in words: the command that made it a write, or that every part is read-only. */
  reason: string;
  /**
   * `file:<absolute path>` keys: for a read, the files it reads (`cat a.ts`); for a write, the
   * files it writes when that is all it does (`npm test > out.log`). Only with a `cwd` (or
   * absolute paths); a word the shell expands (`$F`, `*.ts`) names no file.
   */
  targets?: string[];
  /** A project-wide check (a test run, a type check, a build, a linter, `git diff`/`git status`). */
  check?: true;
  /** A write that only records in the local repository (`git add`, `git commit`): state-only. */
  stateOnly?: true;
}

/** What {@link classifyShellCommand} takes besides the line. */
export interface ShellClassifyOptions {
  /** The directory the line runs in: relative paths are taken from it. */
  cwd?: string;
  /** Extra read and check commands (the `shell` section of a rules file), already validated. */
  rules?: ShellRules;
}

/** Output redirections that write nowhere: `/dev/null`, the terminal streams, or a file descriptor duplicated or closed. */
function harmlessRedirect(op: string, target: string): boolean {
  if (op === '<' || op === '<<' || op === '<<-' || op === '<<<') return true;
  if ((op === '>&' || op === '<&') && /^([0-9]+|-)$/.test(target)) return true;
  return HARMLESS_FILES.has(target);
}
const HARMLESS_FILES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);

/** One simple command judged: a read (with the files it reads, relative as written), or a write. */
type Judged =
  | { kind: 'read'; files: string[]; check?: true; dir?: string }
  | { kind: 'write'; why: string; files?: string[] }
  | { kind: 'record'; why: string; inTree?: string[] };

/** Folders a build writes and can write again: deleting one changes no source file. */
const BUILD_OUTPUT = new Set(['dist', 'build', 'out', 'coverage', '.next', '.turbo', '.cache', '.parcel-cache']);

/**
 * `mkdir` of folders, and `rm` of build output folders: they change no file's content, so the coding
 * profile takes them as state-only writes, when every path is in the project (checked by the caller:
 * `inTree`). Anything else about them (other options, other paths) leaves them writes.
 */
function treeHousekeeping(name: string, args: readonly string[]): { why: string; paths: string[] } | undefined {
  const options = args.filter((a) => a.startsWith('-'));
  const paths = args.filter((a) => !a.startsWith('-'));
  if (paths.length === 0) return undefined;
  if (name === 'mkdir' && options.every((o) => ['-p', '-v', '--parents', '--verbose'].includes(o)))
    return { why: '"mkdir" only creates folders in the project', paths };
  const plain = (p: string) => p.replace(/^\.\//, '').replace(/\/+$/, '');
  if (
    name === 'rm' &&
    options.every((o) => /^-[rRfv]+$/.test(o) || ['--recursive', '--force', '--verbose'].includes(o)) &&
    paths.every((p) => BUILD_OUTPUT.has(plain(p)) || plain(p) === 'node_modules/.cache')
  )
    return { why: '"rm" only deletes build output a build writes again', paths };
  return undefined;
}

/** A path the shell would change (`$F`, `~`, a glob): it names no file we can key. */
const expands = (word: string) => /[$*?[~`]/.test(word);

function judge(command: ShellCommand, rules: ShellRules | undefined): Judged {
  const written: string[] = [];
  for (const redirect of command.redirects) {
    if (harmlessRedirect(redirect.op, redirect.target)) continue;
    if (redirect.op.includes('<') || expands(redirect.target))
      return {
        kind: 'write',
        why: `it writes to ${JSON.stringify(redirect.target)} (${redirect.fd ?? ''}${redirect.op})`,
      };
    written.push(redirect.target);
  }
  const bad = command.assignments.find((a) => !harmlessAssignment(a));
  if (bad !== undefined) return { kind: 'write', why: `it sets ${bad.split('=')[0]} for a command` };
  const argv = [...command.argv];
  let expanding = command.expanding;
  // Wrappers that run the rest as it is: `time npm test`, `timeout 60 npm test`.
  while (argv[0] === 'time' || argv[0] === 'timeout') {
    const skip =
      argv[0] === 'time'
        ? 1
        : 1 + Math.max(0, positionals(argv.slice(1), 'sk', ['--signal', '--kill-after'])[0] ?? 0) + 1;
    if (expanding.some((i) => i < skip)) break;
    argv.splice(0, skip);
    expanding = expanding.map((i) => i - skip);
  }
  const [name, ...args] = argv;
  const asWrite = (why: string): Judged => ({ kind: 'write', why });
  const read = (files: string[], check?: boolean, dir?: string): Judged =>
    written.length
      ? { kind: 'write', why: `it writes to ${written.map((w) => JSON.stringify(w)).join(', ')}`, files: written }
      : { kind: 'read', files, ...(check && { check: true as const }), ...(dir !== undefined && { dir }) };
  if (name === undefined) return read([]);
  if (expanding.includes(0)) return asWrite(`its command name ${JSON.stringify(name)} is expanded by the shell`);
  const fromRules = rules && ruleFor(rules, argv);
  if (fromRules) {
    if (expanding.length) return asWrite(`${JSON.stringify(name)} has arguments the shell expands`);
    if (fromRules.as === 'checks' && !runner()(args))
      return asWrite(`${JSON.stringify(argv.join(' '))} is not a check-mode use`);
    const files =
      fromRules.as === 'fileReads'
        ? positionals(argv.slice(fromRules.words)).map((i) => argv[fromRules.words + i]!)
        : [];
    return read(files, fromRules.as === 'checks');
  }
  if (name === 'tee') {
    if (expanding.length) return asWrite('"tee" writes to a file the shell expands');
    const files = positionals(args)
      .map((i) => args[i]!)
      .filter((f) => !HARMLESS_FILES.has(f));
    written.push(...files);
    return read([]);
  }
  // `sed -i 's/a/b/' f` rewrites f and nothing else: the edit of f, gated as one.
  const inPlace = name === 'sed' && expanding.length === 0 ? sedInPlaceFiles(args) : undefined;
  if (inPlace) {
    written.push(...inPlace.map((i) => args[i]!));
    return read([]);
  }
  if (name === 'cd') return read([]);
  const housekeeping = written.length === 0 && expanding.length === 0 ? treeHousekeeping(name, args) : undefined;
  if (housekeeping) return { kind: 'record', why: housekeeping.why, inTree: housekeeping.paths };
  if (name === 'git' && written.length === 0 && gitRecords(args))
    return { kind: 'record', why: `"git ${args.join(' ')}" only records in the local repository` };
  const rule = Object.hasOwn(COMMANDS, name) ? COMMANDS[name]! : undefined;
  if (!rule) return asWrite(`${JSON.stringify(name)} is not a known read-only command`);
  if (!rule.anyArgs && expanding.length)
    return asWrite(`${JSON.stringify(name)} has arguments the shell expands, which could change what it does`);
  if (!rule.check(args))
    return asWrite(`${JSON.stringify([name, ...args].join(' '))} is not a read-only use of ${name}`);
  if (name === 'git') {
    const facts = gitFacts(args);
    return read(facts.files, facts.check, facts.dir);
  }
  const files = (rule.files?.(args) ?? []).filter((i) => !expanding.includes(i + 1)).map((i) => args[i]!);
  return read(files, rule.project?.(args) === true);
}

/** The rules-file entry a command starts with (the longest), and which list it is in. */
function ruleFor(
  rules: ShellRules,
  argv: readonly string[],
): { as: 'reads' | 'fileReads' | 'checks'; words: number } | undefined {
  let best: { as: 'reads' | 'fileReads' | 'checks'; words: number } | undefined;
  for (const as of ['reads', 'fileReads', 'checks'] as const)
    for (const prefix of rules[as] ?? []) {
      const words = prefix.split(' ');
      if (words.length <= argv.length && words.every((w, i) => argv[i] === w) && words.length > (best?.words ?? 0))
        best = { as, words: words.length };
    }
  return best;
}

/** A folder a `cd` leads to: absolute, or undefined when it cannot be known. */
function changeDir(base: string | undefined, command: ShellCommand): string | undefined {
  const [, ...args] = command.argv;
  const to = args.filter((a) => a !== '-P' && a !== '-L' && a !== '--');
  if (to.length !== 1 || command.expanding.length || to[0] === '-') return undefined;
  const target = fileTarget(to[0]!, base).slice('file:'.length);
  return target.startsWith('/') || /^[A-Za-z]:\//.test(target) ? target : undefined;
}

const inside = (dir: string, root: string) => dir === root || dir.startsWith(`${root.replace(/\/+$/, '')}/`);

/**
 * Classifies a shell command line: a read only when every simple command in it (pipelines,
 * `&&`/`||`/`;` lists, groups) is a known read-only command used read-only, with no output
 * redirected to a file; anything else, or anything the parser cannot judge (command
 * substitution, control keywords), is a write. A read names the files it reads (`cat`, `head`,
 * `tail`, `less`, `grep`/`rg` with paths, `sed -n`, `wc`, `diff`, `git show`, `git diff -- f`)
 * and says whether it is a project-wide check (`npm test`, `tsc`, `git diff`, ...); a write
 * that only writes named files (`> f`, `>> f`, `tee f`, `sed -i 's/a/b/' f`) names them. `cd` moves the folder later (inside `( )`, for that subshell only)
 * relative paths are taken from; a check run outside `cwd` is not one for this project.
 *
 * @example
 * classifyShellCommand('cat src/a.ts | grep x', { cwd: '/repo' }); // { kind: 'read', targets: ['file:/repo/src/a.ts'], ... }
 * classifyShellCommand('npm test && git diff').check;          // true
 * classifyShellCommand('rm -rf src/legacy && ls').kind;             // 'write'
 * classifyShellCommand('git log > out.txt', { cwd: '/repo' }); // { kind: 'write', targets: ['file:/repo/out.txt'], ... }
 */
export function classifyShellCommand(line: string, options: ShellClassifyOptions = {}): ShellClassification {
  if (typeof line !== 'string' || line.trim() === '') return { kind: 'write', reason: 'no command to judge' };
  const parsed = parseShellCommand(line);
  if (parsed.unsupported !== undefined)
    return { kind: 'write', reason: `the command uses ${parsed.unsupported}, which only running it can resolve` };
  if (parsed.commands.length === 0) return { kind: 'write', reason: 'no command to judge' };
  const { cwd, rules } = options;
  let base: string | undefined = cwd;
  let moved = false;
  const reads = new Set<string>();
  const writes = new Set<string>();
  let check = false;
  let writeReason: string | undefined;
  let recordReason: string | undefined;
  const key = (path: string, from: string | undefined) => {
    if (expands(path)) return undefined;
    const target = fileTarget(path, from);
    return /^file:(\/|[A-Za-z]:\/)/.test(target) ? target : undefined;
  };
  // The folder of each subshell, by its scope: it starts where the enclosing one was when it opened.
  const bases = new Map<string, string | undefined>([['', cwd]]);
  const baseOf = (scope: readonly number[]): string | undefined => {
    const at = scope.join('/');
    if (!bases.has(at)) bases.set(at, baseOf(scope.slice(0, -1)));
    return bases.get(at);
  };
  for (const command of parsed.commands) {
    const scope = command.scope ?? [];
    base = baseOf(scope);
    const judged = judge(command, rules);
    if (judged.kind === 'record') {
      // Housekeeping counts as such only inside the project: a folder made or removed elsewhere is a write.
      const paths = judged.inTree?.map((p) => key(p, base));
      if (paths?.some((t) => t === undefined || cwd === undefined || !inside(t.slice('file:'.length), cwd)))
        return { kind: 'write', reason: `${judged.why.split(' only ')[0]} acts outside the project` };
      recordReason ??= judged.why;
      continue;
    }
    if (judged.kind === 'write') {
      const targets = judged.files?.map((f) => key(f, base));
      if (!targets || targets.some((t) => t === undefined)) return { kind: 'write', reason: judged.why };
      for (const t of targets) writes.add(t!);
      writeReason ??= judged.why;
      continue;
    }
    const from =
      judged.dir === undefined ? base : judged.dir === '\0' ? undefined : fileTarget(judged.dir, base).slice(5);
    for (const f of judged.files) {
      const t = key(f, from);
      if (t !== undefined) reads.add(t);
    }
    if (judged.check && judged.dir !== '\0') {
      const at = judged.dir === undefined ? base : from;
      if (cwd === undefined ? !moved && judged.dir === undefined : at !== undefined && inside(at, cwd)) check = true;
    }
    if (command.argv[0] === 'cd') {
      bases.set(scope.join('/'), changeDir(base, command));
      moved = true;
    }
  }
  if (writeReason !== undefined) return { kind: 'write', reason: writeReason, targets: [...writes] };
  if (recordReason !== undefined) return { kind: 'write', reason: recordReason, stateOnly: true };
  return {
    kind: 'read',
    reason: check
      ? 'every command in it is a known read-only command, with a project-wide check'
      : 'every command in it is a known read-only command',
    ...(reads.size && { targets: [...reads] }),
    ...(check && { check: true }),
  };
}
