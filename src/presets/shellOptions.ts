/*
 * How GNU tools (getopt_long) and git (parse-options) read the options of a command line, and the
 * checks the shell table puts on a command's arguments.
 */

/**
 * A long option as GNU getopt_long and git's parse-options read it: the word's name (before any
 * `=`) is the option or an abbreviation of it (`--in` for `--in-place`), at least one letter long.
 */
export const spells = (word: string, option: string) => {
  const name = word.includes('=') ? word.slice(0, word.indexOf('=')) : word;
  return name.length > 2 && option.startsWith(name);
};
/** The letters of a bundle of one-letter options, up to the first character that is not one (`-uo./x` → `uo`). */
const bundle = (word: string) => (/^-[A-Za-z]/.test(word) ? /^-([A-Za-z]+)/.exec(word)![1]! : '');

/** A check on a command's arguments: true when the command, so called, only reads. */
export type ArgsCheck = (args: readonly string[]) => boolean;

export const always: ArgsCheck = () => true;
/**
 * None of the given options: `--in-place`, `--in-place=...` and its abbreviations (`--in`), a
 * one-letter option alone or in a bundle, its value glued or not (`-ni`, `-o./out`); a
 * multi-letter option with one dash (`-delete`) as a whole word or bundled likewise.
 */
export const without =
  (...options: string[]): ArgsCheck =>
  (args) =>
    !args.some((a) =>
      options.some((o) =>
        o.startsWith('--')
          ? a === o || a.startsWith(`${o}=`) || (a.startsWith('--') && spells(a, o))
          : a === o || (!a.startsWith('--') && bundle(a).includes(o.slice(1))),
      ),
    );
/** Only when called with one of these arguments somewhere. */
export const withAny =
  (...options: string[]): ArgsCheck =>
  (args) =>
    args.some((a) => options.some((o) => a === o || a.startsWith(`${o}=`)));
export const noArgs: ArgsCheck = (args) => args.length === 0;
const both =
  (...checks: ArgsCheck[]): ArgsCheck =>
  (args) =>
    checks.every((c) => c(args));

/** Test runners and checkers in check mode (no `--fix`, `--write`, `-u`, `--watch`). */
export const runner = (needs: ArgsCheck = always) =>
  both(
    needs,
    without(
      '--fix',
      '--write',
      '-w',
      '-u',
      '--updateSnapshot',
      '--update',
      '--watch',
      '--watchAll',
      // a report written where the agent says (jest, vitest, pytest), a folder pytest empties first
      '--outputFile',
      '--junitxml',
      '--junit-xml',
      '--basetemp',
    ),
  );
