import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/*
 * The package entries as the docs tests see them: `src/index.ts` is
 * `assistant-safety`, each `src/<name>/index.ts` is `assistant-safety/<name>`,
 * read with the TypeScript compiler (one program for every test file that asks).
 */

/** One package entry: its import specifier and its source file. */
export interface Entry {
  specifier: string;
  file: string;
}

/** Every entry, the root first. */
export const entries: Entry[] = [
  { specifier: 'assistant-safety', file: 'src/index.ts' },
  ...readdirSync('src', { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join('src', d.name, 'index.ts')))
    .map((d) => ({ specifier: `assistant-safety/${d.name}`, file: join('src', d.name, 'index.ts') })),
];

let cached: ts.Program | undefined;

/** One TypeScript program over every entry. */
export function program(): ts.Program {
  cached ??= ts.createProgram(
    entries.map((e) => e.file),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      jsx: ts.JsxEmit.ReactJSX,
      strict: true,
      skipLibCheck: true,
      noEmit: true,
    },
  );
  return cached;
}

/** The symbols an entry exports, values and types, re-exports followed to where they are declared. */
export function exportsOf(entry: Entry): { name: string; symbol: ts.Symbol }[] {
  const checker = program().getTypeChecker();
  const source = program().getSourceFile(entry.file);
  if (!source) throw new Error(`${entry.file} is not part of the program`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) return [];
  return checker.getExportsOfModule(moduleSymbol).map((exported) => ({
    name: exported.name,
    symbol: exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported,
  }));
}
