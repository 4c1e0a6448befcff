import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The package's subpaths are its architecture; these checks keep the lines
 * between them where docs/packages.md draws them.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return filesUnder(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

/** Every module specifier a file imports or re-exports (static and dynamic). */
function specifiers(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*['"]([^'"]+)['"]/g)) found.push(m[1]!);
  for (const m of text.matchAll(/(?<!typeof )import\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1]!);
  for (const m of text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) found.push(m[1]!);
  return found;
}

/** The repository path a relative specifier points at (`.js` written, `.ts` on disk). */
const target = (from: string, spec: string) =>
  relative(root, resolve(root, dirname(from), spec)).replace(/\.js$/, '.ts');

/** The root entry and every module it reaches. */
function coreModules(): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of specifiers(file)) if (spec.startsWith('.')) visit(target(file, spec));
  };
  visit('src/index.ts');
  return seen;
}

describe('the package boundaries', () => {
  it('should keep the root entry runtime-neutral: no node: module, no ws, no full zod, nothing from a subpath folder', () => {
    const offending: string[] = [];
    for (const file of coreModules()) {
      for (const spec of specifiers(file)) {
        // zod/mini only: the full API (and its locales) would triple the browser bundle.
        if (spec === 'zod') offending.push(`${file} imports zod (use zod/mini)`);
        if (spec.startsWith('node:') || spec === 'ws' || /^(fs|path|os|crypto|http|net|url|util)$/.test(spec))
          offending.push(`${file} imports ${spec}`);
        if (spec.startsWith('.')) {
          const to = target(file, spec);
          if (
            /^src\/(testing|export|editor|live|node|server|cli|classify|mcp|ai-sdk|openai-agents|redis|otel|insights)\//.test(
              to,
            )
          )
            offending.push(`${file} imports ${to}`);
        }
      }
    }
    expect(coreModules().size).toBeGreaterThan(10);
    expect(offending).toEqual([]);
  });

  it('should import the CLI only from inside src/cli', () => {
    const offending = ['src', 'viz', 'bench', 'scripts', 'examples', 'soak']
      .flatMap(filesUnder)
      .filter((f) => !f.startsWith('src/cli/'))
      .flatMap((f) => specifiers(f).map((s) => [f, s] as const))
      .filter(([f, s]) => s.startsWith('.') && target(f, s).startsWith('src/cli/'))
      .map(([f, s]) => `${f} imports ${s}`);
    expect(offending).toEqual([]);
  });

  it('should have the app import the library through its package entries, never by a path into src/', () => {
    const offending = filesUnder('viz')
      .flatMap((f) => specifiers(f).map((s) => [f, s] as const))
      .filter(([f, s]) => s.startsWith('.') && target(f, s).startsWith('src/'))
      .map(([f, s]) => `${f} imports ${s}`);
    expect(filesUnder('viz').length).toBeGreaterThan(10);
    expect(offending).toEqual([]);
  });

  it('should export every subpath folder with an index from package.json, with types', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      exports: Record<string, { types: string; import: string } | string>;
    };
    const folders = readdirSync(join(root, 'src')).filter(
      (name) =>
        name !== 'cli' &&
        statSync(join(root, 'src', name)).isDirectory() &&
        readdirSync(join(root, 'src', name)).includes('index.ts'),
    );
    for (const folder of folders) {
      expect(pkg.exports[`./${folder}`], folder).toEqual({
        types: `./dist/src/${folder}/index.d.ts`,
        import: `./dist/src/${folder}/index.js`,
      });
    }
  });

  it('should have no import cycle in src/, type-only imports included', () => {
    const files = filesUnder('src');
    const edges = new Map(
      files.map((f) => [
        f,
        specifiers(f)
          .filter((spec) => spec.startsWith('.'))
          .map((spec) => {
            const t = target(f, spec);
            return existsSync(join(root, t)) ? t : t.replace(/\.ts$/, '.tsx');
          }),
      ]),
    );
    // Depth-first: a module met again while still on the path closes a cycle.
    const cycles: string[] = [];
    const done = new Set<string>();
    const path: string[] = [];
    const visit = (file: string) => {
      const at = path.indexOf(file);
      if (at >= 0) return void cycles.push([...path.slice(at), file].join(' → '));
      if (done.has(file)) return;
      path.push(file);
      for (const next of edges.get(file) ?? []) visit(next);
      path.pop();
      done.add(file);
    };
    for (const file of files) visit(file);
    expect(cycles).toEqual([]);
  });

  it('should keep the root entry in layers: core knows no kind, safety no harness, and every root module in one', () => {
    // src/core: the generic engine (definition, index, compile, runner, kind session); src/safety: the
    // safety kind (its JSON's guards and actions, context, events, session); src/harness: what turns
    // tool calls into session calls (rules, classifier, discovery, the tool loop and its settle rule). Each
    // imports only the ones before it.
    const below: Record<string, readonly string[]> = {
      core: ['core'],
      safety: ['core', 'safety'],
      harness: ['core', 'safety', 'harness'],
    };
    const upward: string[] = [];
    for (const [layer, allowed] of Object.entries(below)) {
      for (const file of filesUnder(`src/${layer}`)) {
        for (const spec of specifiers(file).filter((s) => s.startsWith('.'))) {
          const to = target(file, spec).split('/');
          if (to[0] === 'src' && to.length > 2 && !allowed.includes(to[1]!))
            upward.push(`${file} imports ${to.join('/')}`);
          if (to[0] === 'src' && to.length === 2) upward.push(`${file} imports ${to.join('/')}`);
        }
      }
    }
    expect(upward).toEqual([]);
    const loose = readdirSync(join(root, 'src')).filter((n) => /\.tsx?$/.test(n) && n !== 'index.ts');
    expect(loose).toEqual([]);
  });

  it('should keep every source file under 600 lines', () => {
    const long = filesUnder('src')
      .map((f) => ({ f, lines: readFileSync(join(root, f), 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > 600);
    expect(long).toEqual([]);
  });
});
