/*
 * Formatters in the shell table: the uses that only print (`gofmt -l`, `gofmt -d`) or check
 * (`black --check`, `cargo fmt --check`), never one that rewrites a file. Each reads its options
 * word by word, and an option it does not know is a write.
 */

import { runner, without, withAny } from './shellOptions.js';

/**
 * `gofmt` without `-w` (and without `-cpuprofile`, which writes a file): it prints the formatted
 * source (`gofmt f.go`), the files that differ (`-l`) or the diff (`-d`). Go's flags are whole
 * words after one or two dashes, a bool one may carry `=true`/`=false`; `-r` takes a rule.
 */
export function gofmtReads(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return true;
    if (!a.startsWith('-') || a === '-') continue;
    const [name, value] = a.replace(/^--?/, '').split(/=(.*)/s);
    if (name === 'r') {
      if (value === undefined) i++;
    } else if (!['l', 'd', 'e', 's'].includes(name!) || (value !== undefined && !/^(true|false)$/.test(value)))
      return false;
  }
  return true;
}

/** black's options that take a value (the next word, or after `=`); a one-letter one may have it glued (`-l88`). */
const BLACK_VALUES = new Set([
  '-c',
  '--code',
  '-l',
  '--line-length',
  '-t',
  '--target-version',
  '--python-cell-magics',
  '--enable-unstable-feature',
  '--line-ranges',
  '--required-version',
  '--include',
  '--exclude',
  '--extend-exclude',
  '--force-exclude',
  '--stdin-filename',
  '-W',
  '--workers',
  '--config',
]);
const BLACK_FLAGS = new Set([
  '--check',
  '--diff',
  '--pyi',
  '--ipynb',
  '-x',
  '--skip-source-first-line',
  '-S',
  '--skip-string-normalization',
  '-C',
  '--skip-magic-trailing-comma',
  '--preview',
  '--unstable',
  '--color',
  '--no-color',
  '--fast',
  '--safe',
  '-q',
  '--quiet',
  '-v',
  '--verbose',
]);

/** What a `black` command line asks: whether `--check`/`--diff` is among its options, or undefined for an option it does not know. */
function blackModes(args: readonly string[]): { check: boolean; diff: boolean } | undefined {
  let check = false;
  let diff = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break; // the rest are paths, even `--check`
    if (!a.startsWith('-') || a === '-') continue;
    const name = a.startsWith('--') ? a.split('=')[0]! : a.slice(0, 2);
    if (BLACK_VALUES.has(name)) {
      if (a === name) i++;
    } else if (BLACK_FLAGS.has(a)) {
      check ||= a === '--check';
      diff ||= a === '--diff';
    } else return undefined;
  }
  return { check, diff };
}

/** `black --check` or `black --diff`: black then writes no file back, whatever else it is given. */
export function blackReads(args: readonly string[]): boolean {
  const modes = blackModes(args);
  return modes !== undefined && (modes.check || modes.diff);
}
/** `black --check` fails when a file is not formatted: a check, as `prettier --check` is. */
export const blackChecks = (args: readonly string[]): boolean => blackModes(args)?.check === true;

/** cargo fmt's own options: those that take a value (next word or after `=`), and the flags. */
const CARGO_FMT_VALUES = new Set(['-p', '--package', '--manifest-path', '--message-format']);
const CARGO_FMT_FLAGS = new Set(['--check', '--all', '-q', '--quiet', '-v', '--verbose']);
/** rustfmt's options after `--` that change nothing on disk. */
const RUSTFMT_VALUES = new Set(['--edition', '--color', '--config-path', '--style-edition']);
const RUSTFMT_FLAGS = new Set(['--check', '-l', '--files-with-diff', '-q', '--quiet', '-v', '--verbose']);

/**
 * `cargo fmt --check` (or `cargo fmt -- --check`, its older spelling): rustfmt prints the diff and
 * writes nothing. Every other word must be one of the options above (`--all`, `-p crate`, ...):
 * `--emit`, `--backup` or a `--config` could make rustfmt write.
 */
export function cargoFmtChecks(args: readonly string[]): boolean {
  let check = false;
  let values = CARGO_FMT_VALUES;
  let flags = CARGO_FMT_FLAGS;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--' && values === CARGO_FMT_VALUES) {
      values = RUSTFMT_VALUES;
      flags = RUSTFMT_FLAGS;
      continue;
    }
    const name = a.split('=')[0]!;
    if (values.has(name)) {
      if (a === name) i++;
    } else if (flags.has(a)) check ||= a === '--check';
    else return false;
  }
  return check;
}

/**
 * What makes ruff write besides `--fix`: `--fix-only`, `--add-noqa` (both rewrite sources), a
 * report or a cache where the agent says (`-o`/`--output-file`, `--cache-dir`), and an inline
 * `--config 'fix = true'` (a `--config` value holding `=` is inline TOML, not a file).
 */
const ruffOwn = without('--fix-only', '--add-noqa', '-o', '--output-file', '--cache-dir');
const inlineConfig = (args: readonly string[]) =>
  args.some((a, i) => (a === '--config' && (args[i + 1] ?? '').includes('=')) || /^--config=.*=/s.test(a));

/** `ruff check` in check mode, or `ruff format --check`/`--diff`. */
export function ruffReads(args: readonly string[]): boolean {
  const [sub, ...rest] = args;
  if (inlineConfig(rest) || !ruffOwn(rest)) return false;
  return (sub === 'check' && runner()(rest)) || (sub === 'format' && withAny('--check', '--diff')(rest));
}
