/*
 * `awk` (and `gawk`, `mawk`, `nawk`) in the shell table: a read when its program, given on the
 * command line, provably writes nothing and runs nothing, and no option makes it do so.
 */

import { spells } from './shellOptions.js';

/**
 * Options that leave awk a read: one-letter flags (bundled or not), and the long ones gawk takes
 * (any unambiguous prefix, as getopt_long reads them). `-F` and `-v` take a value, glued or the
 * next word; so do `--field-separator` and `--assign`.
 */
const FLAGS = 'bcCghMnNOPrsStV';
const VALUE_FLAGS = 'Fv';
const LONG_FLAGS = [
  '--characters-as-bytes',
  '--traditional',
  '--copyright',
  '--gen-pot',
  '--help',
  '--usage',
  '--bignum',
  '--non-decimal-data',
  '--use-lc-numeric',
  '--optimize',
  '--posix',
  '--re-interval',
  '--no-optimize',
  '--sandbox',
  '--lint-old',
  '--version',
  '--lint',
];
const LONG_VALUES = ['--field-separator', '--assign'];
/**
 * gawk's long options that write a file (`--dump-variables`, `--profile`, `--pretty-print`), take
 * the program from a file (`--file`, `--exec`, `--include`), load code (`--load`) or run a debugger:
 * an abbreviation that could be one of them is taken for it.
 */
const LONG_WRITERS = [
  '--dump-variables',
  '--profile',
  '--pretty-print',
  '--file',
  '--exec',
  '--include',
  '--load',
  '--debug',
  '--source',
];

/** The program's text and the indexes of its operands (files, or `var=value` assignments), or undefined when an option can write. */
function awkProgram(args: readonly string[]): { program: string; operands: number[] } | undefined {
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (a === '-' || !a.startsWith('-')) break;
    if (a.startsWith('--')) {
      const name = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
      const exact = [...LONG_FLAGS, ...LONG_VALUES].includes(name);
      if (!exact && LONG_WRITERS.some((o) => spells(a, o))) return undefined;
      const value = LONG_VALUES.find((o) => spells(a, o));
      if (value !== undefined) {
        if (!a.includes('=')) i++;
      } else if (!LONG_FLAGS.some((o) => spells(a, o)) || (a.includes('=') && !spells(a, '--lint'))) return undefined;
      continue;
    }
    for (let k = 1; k < a.length; k++) {
      const c = a[k]!;
      if (VALUE_FLAGS.includes(c)) {
        if (k === a.length - 1) i++; // the value is the next word
        break;
      }
      // -f, -e, -E, -i, -l, -d, -D, -o, -p, -W, -L and any other: a file, a program or an option we do not read
      if (!FLAGS.includes(c)) return undefined;
    }
  }
  if (i >= args.length) return undefined;
  const operands: number[] = [];
  for (let j = i + 1; j < args.length; j++) operands.push(j);
  return { program: args[i]!, operands };
}

/**
 * Whether an awk program can write or run something. It is read as plain text, never lexed (a
 * string or a regex read wrongly could hide code), for what awk writes or runs with:
 *
 * - `system`, gawk's `@` (`@include`, `@load`, an indirect call of `system`), a network special
 *   file (`/inet`): anywhere;
 * - an output redirection (`print > "f"`, `>>`) or a pipe to a command (`print | "sh"`, `|&`):
 *   after the first `print`/`printf`, since it follows one (a `>` or `|` before it, as in
 *   `$3 > 100 {print $1}` or `/a|b/ {print}`, is a comparison or a regex);
 * - a pipe from a command (`"date" | getline`): a `|` that is not `||` in a program that calls `getline`.
 */
function awkProgramWrites(program: string): boolean {
  const text = program.replace(/\\\r?\n/g, '');
  if (/system|@|\/inet/.test(text)) return true;
  // `||` (or) read as awk reads it, greedily from the left: a lone `|` left over is a pipe.
  const pipes = text.replace(/\|\|/g, '  ');
  if (pipes.includes('|') && text.includes('getline')) return true;
  const firstPrint = text.indexOf('print');
  return firstPrint !== -1 && (text.includes('>', firstPrint) || pipes.includes('|', firstPrint));
}

/** `awk 'PROGRAM' [file...]` that only reads: its program and options checked as {@link awkProgramWrites} and the options above say. */
export function awkReads(args: readonly string[]): boolean {
  const parsed = awkProgram(args);
  return (
    parsed !== undefined &&
    !awkProgramWrites(parsed.program) &&
    !parsed.operands.some((i) => args[i]!.startsWith('/inet'))
  );
}

/** The files an awk read reads: its operands that are not `var=value` assignments. */
export const awkFiles = (args: readonly string[]): number[] =>
  (awkProgram(args)?.operands ?? []).filter((i) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(args[i]!) && args[i] !== '-');
