/* How GNU tools (getopt_long) and git (parse-options) read the options of a command line. */

/**
 * A long option as GNU getopt_long and git's parse-options read it: the word's name (before any
 * `=`) is the option or an abbreviation of it (`--in` for `--in-place`), at least one letter long.
 */
export const spells = (word: string, option: string) => {
  const name = word.includes('=') ? word.slice(0, word.indexOf('=')) : word;
  return name.length > 2 && option.startsWith(name);
};
/** The letters of a bundle of one-letter options, up to the first character that is not one (`-uo./x` → `uo`). */
export const bundle = (word: string) => (/^-[A-Za-z]/.test(word) ? /^-([A-Za-z]+)/.exec(word)![1]! : '');
