/*
 * `sed` in the shell table: the uses that only print to stdout (`sed -n '1,80p' f`, `sed 's/a/b/' f`),
 * and the in-place edits of named files.
 */

import { spells } from './shellOptions.js';

/** A `sed` command's arguments taken apart, or undefined for `-f` (a script from a file) and short options this does not know. */
interface SedArgs {
  /** `-i`/`--in-place`, however abbreviated or bundled. */
  inPlace: boolean;
  scripts: string[];
  /** Indexes of the file arguments. */
  files: number[];
  /** Only options an in-place edit of the named files may take (not `--follow-symlinks`, say, which edits another file). */
  plain: boolean;
}

/** The long options an in-place edit may have besides `--in-place` and `--expression`. */
const PLAIN_LONG = ['--regexp-extended', '--quiet', '--silent', '--separate', '--null-data'];

function sedArgs(args: readonly string[]): SedArgs | undefined {
  let inPlace = false;
  let plain = true;
  const scripts: string[] = [];
  const positional: number[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      for (let j = i + 1; j < args.length; j++) positional.push(j);
      break;
    }
    if (a.startsWith('--')) {
      // GNU sed takes any unambiguous prefix of a long option: `--i` is `--in-place`.
      if (spells(a, '--file')) return undefined;
      if (spells(a, '--in-place')) inPlace = true;
      else if (spells(a, '--expression'))
        scripts.push(a.includes('=') ? a.slice(a.indexOf('=') + 1) : (args[++i] ?? ''));
      else {
        plain &&= PLAIN_LONG.some((o) => spells(a, o));
        if (spells(a, '--line-length') && !a.includes('=')) i++;
      }
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let k = 1; k < a.length; k++) {
        const c = a[k]!;
        if (c === 'i') {
          inPlace = true; // the rest of the word is the backup suffix
          break;
        }
        if (c === 'e' || c === 'l') {
          // The rest of the word is the option's value (`-e'1p'`, `-l80`), else the next word.
          const value = k < a.length - 1 ? a.slice(k + 1) : (args[++i] ?? '');
          if (c === 'e') scripts.push(value);
          else plain = false;
          break;
        }
        if (!'Ernsuz'.includes(c)) return undefined; // -f, or one this table does not know
        if (c === 'u') plain = false;
      }
      continue;
    }
    positional.push(i);
  }
  // No -e: the first positional is the script, the rest are the files.
  if (scripts.length) return { inPlace, scripts, files: positional, plain };
  return { inPlace, scripts: [args[positional[0] ?? -1] ?? ''], files: positional.slice(1), plain };
}

/**
 * The scripts and file arguments of a `sed` that writes nothing but stdout, or undefined: never
 * `-i`/`--in-place` (however abbreviated or bundled), `-f`, nor a short option this does not know.
 */
export function sedScripts(args: readonly string[]): { scripts: string[]; files: number[] } | undefined {
  const parsed = sedArgs(args);
  return parsed && !parsed.inPlace ? { scripts: parsed.scripts, files: parsed.files } : undefined;
}

/** A sed script piece that changes only the line it is on: an address, then `s` (no `w`/`e` flag), `d`, `p` or `=`. */
const SED_EDIT_PIECE =
  /^\s*((\d+|\$|\/[^/\\]*\/)(\s*,\s*(\d+|\$|\/[^/\\]*\/))?)?\s*(s([/|#,:])((?!\6)[^\\]|\\.)*\6((?!\6)[^\\]|\\.)*\6[gIiMmp0-9]*|d|p|=)\s*$/;
/** Every piece of every script changes only the line it is on (no `w`, `e`, `r`, `W`, `R`: nothing but stdout). */
const onlyLineEdits = (scripts: readonly string[]) =>
  scripts.every((s) => s.split(/[;\n]/).every((piece) => SED_EDIT_PIECE.test(piece)));

/**
 * `sed` without `-i` whose script only prints, deletes or substitutes lines (`sed -n '1,80p' f`,
 * `sed 's/a/b/g' f`, `sed '/^#/d' f`): it writes to stdout alone, a read.
 */
export const sedReads = (args: readonly string[]): boolean => {
  const parsed = sedScripts(args);
  return parsed !== undefined && onlyLineEdits(parsed.scripts);
};
/**
 * `sed -i SCRIPT FILE...` whose script only edits lines (`s/a/b/g`, `/x/d`): the indexes of the
 * files it rewrites, so the coding profile gates it as the edit of those files it is. Any other
 * use of `-i` (a script that could write elsewhere or run something, `-f`, an option this does
 * not know, no file) is undefined: a write that names nothing.
 */
export function sedInPlaceFiles(args: readonly string[]): number[] | undefined {
  const parsed = sedArgs(args);
  if (!parsed?.inPlace || !parsed.plain || parsed.files.length === 0) return undefined;
  return onlyLineEdits(parsed.scripts) ? parsed.files : undefined;
}
