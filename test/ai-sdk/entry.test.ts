import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SDKS = /^(ai|ai\/.*|@ai-sdk\/.*|@openai\/agents.*)$/;

/** Every module the file imports, transitively: relative files and bare package names. */
function importGraph(entry: string) {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g)) {
      const spec = m[1] ?? m[2]!;
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      else packages.add(spec);
    }
  };
  visit(entry);
  return { files: [...files].map((f) => relative(root, f)), packages: [...packages] };
}

describe('the SDK adapters and the root entry', () => {
  it('should keep both SDKs and both adapters out of the root entry', () => {
    const { files, packages } = importGraph(join(root, 'src/index.ts'));
    expect(files.filter((f) => f.startsWith('src/ai-sdk/') || f.startsWith('src/openai-agents/'))).toEqual([]);
    expect(packages.filter((p) => SDKS.test(p))).toEqual([]);
  });

  it('should import each SDK only from its own adapter', () => {
    expect(importGraph(join(root, 'src/ai-sdk/index.ts')).packages.filter((p) => SDKS.test(p))).toEqual(['ai']);
    expect(importGraph(join(root, 'src/openai-agents/index.ts')).packages.filter((p) => SDKS.test(p))).toEqual([
      '@openai/agents',
    ]);
  });

  it('should declare each SDK as an optional peer and export each adapter as a subpath', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    for (const [sdk, sub] of [
      ['ai', 'ai-sdk'],
      ['@openai/agents', 'openai-agents'],
    ] as const) {
      expect(pkg.peerDependencies[sdk]).toBeDefined();
      expect(pkg.peerDependenciesMeta[sdk]).toEqual({ optional: true });
      expect(pkg.dependencies[sdk]).toBeUndefined();
      expect(pkg.devDependencies[sdk]).toMatch(/^\d+\.\d+\.\d+$/); // pinned exactly
      expect(pkg.exports[`./${sub}`]).toEqual({
        types: `./dist/src/${sub}/index.d.ts`,
        import: `./dist/src/${sub}/index.js`,
      });
    }
  });
});
