import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * docs/install.md's table of Node.js versions per subpath says what this
 * repository installs and tests: every subpath of package.json is a row; a
 * peer's range is package.json's peer range, its tested version the exact
 * development dependency installed here, and the Node.js column the oldest
 * major the installed SDK and its dependencies all declare (20 when none asks
 * for more).
 */

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  exports: Record<string, unknown>;
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const page = readFileSync('docs/install.md', 'utf8');
const section = page.slice(page.indexOf('## Node.js versions per subpath'));
const rows = section
  .split('\n')
  .filter((line) => line.startsWith('| `assistant-safety'))
  .map((line) =>
    line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim().replace(/^`|`$/g, '')),
  );

const manifest = (name: string) =>
  JSON.parse(readFileSync(join('node_modules', name, 'package.json'), 'utf8')) as {
    version: string;
    engines?: { node?: string };
    dependencies?: Record<string, string>;
  };

/** The oldest Node.js major that `name` and everything it depends on (as installed here) declare. */
function nodeNeeded(name: string, seen = new Set<string>()): number {
  if (seen.has(name) || !existsSync(join('node_modules', name, 'package.json'))) return 20;
  seen.add(name);
  const m = manifest(name);
  const declared = /^>=\s*v?(\d+)/.exec(m.engines?.node ?? '');
  let most = Math.max(20, declared ? Number(declared[1]) : 0);
  for (const dep of Object.keys(m.dependencies ?? {})) most = Math.max(most, nodeNeeded(dep, seen));
  return most;
}

describe('the Node.js matrix of docs/install.md', () => {
  it('should have one row per subpath of package.json', () => {
    const subpaths = Object.keys(pkg.exports)
      .filter((k) => k !== './package.json')
      .map((k) => (k === '.' ? 'assistant-safety' : `assistant-safety/${k.slice(2)}`));
    expect(rows.map((r) => r[0]!.replace(/` \(root\)$|^`| \(root\)$/g, '')).sort()).toEqual(subpaths.sort());
  });

  for (const [subpath, peer, range, tested, node] of rows) {
    it(`should say what ${subpath} needs, as installed and tested here`, () => {
      if (peer === 'none') {
        expect(node).toBe('20');
        return;
      }
      expect(range).toBe(pkg.peerDependencies[peer!]);
      expect(tested).toBe(pkg.devDependencies[peer!]);
      expect(manifest(peer!).version).toBe(tested);
      expect(Number(node)).toBe(nodeNeeded(peer!));
    });
  }
});
