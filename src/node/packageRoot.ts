import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * The folder of this package's package.json, found by walking up from this
 * file: the same from `src/` (tests, tsx) and from `dist/src/` (the built bin).
 *
 * @example
 * join(packageRoot(), 'recordings'); // the demo recordings shipped with the package
 */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate) && JSON.parse(readFileSync(candidate, 'utf8')).name === 'assistant-safety') {
      return (cached = dir);
    }
    const up = dirname(dir);
    if (up === dir) throw new Error('assistant-safety: cannot find the package root');
    dir = up;
  }
}

export function packageVersion(): string {
  return JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')).version;
}

/**
 * The shipped machine's JSON file.
 *
 * @example
 * readFileSync(defaultMachinePath(), 'utf8'); // machines/assistant-safety.json
 */
export function defaultMachinePath(): string {
  return join(packageRoot(), 'machines', 'assistant-safety.json');
}
