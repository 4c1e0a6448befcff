import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { entries, exportsOf, program } from './entries.js';

/*
 * Every function a package entry exports carries a doc comment with an
 * example: an `@example` tag or a fenced code block. Re-exports are followed
 * to the declaration that holds the comment.
 */

/** A function declaration, or a const whose value is callable (an arrow, a built classifier), not a class. */
function isFunction(symbol: ts.Symbol): boolean {
  if (symbol.flags & ts.SymbolFlags.Function) return true;
  if (!(symbol.flags & ts.SymbolFlags.Variable) || symbol.flags & ts.SymbolFlags.Class) return false;
  const declaration = symbol.valueDeclaration;
  if (!declaration) return false;
  const type = program().getTypeChecker().getTypeOfSymbolAtLocation(symbol, declaration);
  return type.getCallSignatures().length > 0 && type.getConstructSignatures().length === 0;
}

/** The symbol's doc comment (on any of its declarations) holds `@example` or a fenced block. */
function hasExample(symbol: ts.Symbol): boolean {
  return (symbol.declarations ?? []).some((declaration) => {
    const node = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
    const text = node.getSourceFile().getFullText();
    return (ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []).some((range) => {
      const comment = text.slice(range.pos, range.end);
      return comment.startsWith('/**') && (comment.includes('@example') || comment.includes('```'));
    });
  });
}

describe('doc comments of the package entries', () => {
  // Building the TypeScript program over every entry takes seconds (tens on a loaded machine).
  beforeAll(() => void program(), 180_000);

  for (const entry of entries) {
    it(`should give every function ${entry.specifier} exports a doc comment with an example`, () => {
      const missing = exportsOf(entry)
        .filter((e) => isFunction(e.symbol) && !hasExample(e.symbol))
        .map((e) => e.name);
      expect(missing, `functions exported by ${entry.file} without an example in their doc comment`).toEqual([]);
    });
  }
});
