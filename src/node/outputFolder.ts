import { accessSync, constants, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Why files cannot be written in the folder `dir`, or undefined when they can: checked before a
 * long run, so it fails at once, in one line, instead of after the work (or halfway through it).
 * With `create`, a missing folder is fine when its nearest existing ancestor is a writable folder
 * (it is made, parents and all, when the first file is written); without it, the folder must exist.
 * Paths are named as given.
 *
 * @example
 * outputFolderProblem('some/missing/dir', { create: false }); // 'no such folder: some/missing/dir'
 * outputFolderProblem('notes.txt/out', { create: true });     // 'not a folder: notes.txt'
 */
export function outputFolderProblem(dir: string, options: { create: boolean }): string | undefined {
  // The nearest existing ancestor (the folder itself, when it exists) decides.
  let at = dir;
  let isDirectory: boolean;
  for (;;) {
    try {
      isDirectory = statSync(at).isDirectory();
      break;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // ENOTDIR: the path goes through a file, which an ancestor further up names.
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || dirname(at) === at)
        return `cannot read folder ${at}: ${(e as Error).message}`;
      at = dirname(at);
    }
  }
  if (!isDirectory) return `not a folder: ${at}`;
  if (at !== dir && !options.create) return `no such folder: ${dir}`;
  try {
    accessSync(at, constants.W_OK);
  } catch {
    return `cannot write in folder ${at}`;
  }
  return undefined;
}
