import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * A clean `npm ci` of this repository prints no engine warning (EBADENGINE)
 * on the Node.js it runs on: every package the lock file installs here
 * declares a `node` range that holds this Node.js. A dependency that moves
 * to a newer Node (an SDK major that needs Node.js 22) fails here, naming it.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
};

type Version = [number, number, number];
const parse = (v: string): Version | undefined => {
  const m = /^v?(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?$/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2]) || 0, Number(m[3]) || 0] : undefined;
};
const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** Whether `version` is in `range` (`>=`, `>`, `<=`, `<`, `^`, `~`, `=`, a bare version, `||`, spaces as and). */
function satisfies(version: Version, range: string): boolean {
  return range.split('||').some((alternative) => {
    const comparators = alternative
      .trim()
      .replace(/([<>=^~]+)\s+/g, '$1')
      .split(/\s+/);
    return comparators.every((c) => {
      const m = /^(>=|<=|>|<|=|\^|~)?(.+)$/.exec(c);
      const bound = m && parse(m[2]!);
      if (!bound) throw new Error(`cannot read the engines range "${range}"`);
      const order = compare(version, bound);
      switch (m[1]) {
        case '>=':
          return order >= 0;
        case '>':
          return order > 0;
        case '<=':
          return order <= 0;
        case '<':
          return order < 0;
        case '^':
          return order >= 0 && version[0] === bound[0];
        case '~':
          return order >= 0 && version[0] === bound[0] && version[1] === bound[1];
        default: {
          // A bare or `=` version: as many parts as it names (`20` is any 20.x).
          const parts = m[2]!.split('.').filter((p) => /^\d+$/.test(p)).length;
          return version.slice(0, parts).every((n, i) => n === bound[i]);
        }
      }
    });
  });
}

describe('npm ci of this repository', () => {
  it('should install only packages whose engines accept this Node.js (no EBADENGINE warning)', () => {
    const node = parse(process.versions.node)!;
    const refused = Object.entries(lock.packages)
      .filter(([path]) => path !== '' && existsSync(join(root, path, 'package.json'))) // installed on this platform
      .flatMap(([path, entry]) => {
        const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
        return range && !satisfies(node, range) ? [`${path}@${entry.version}: node ${range}`] : [];
      });
    expect(refused, `on Node.js ${process.versions.node}`).toEqual([]);
  });

  it('should read the engines ranges the way npm does', () => {
    const v = (s: string) => parse(s)!;
    expect(satisfies(v('20.20.2'), '>=20')).toBe(true);
    expect(satisfies(v('20.20.2'), '>=22')).toBe(false);
    expect(satisfies(v('20.20.2'), '^20.19.0 || >=22.12.0')).toBe(true);
    expect(satisfies(v('20.18.0'), '^20.19.0 || >=22.12.0')).toBe(false);
    expect(satisfies(v('20.20.2'), '20 || >=22')).toBe(true);
    expect(satisfies(v('21.0.0'), '20 || >=22')).toBe(false);
    expect(satisfies(v('20.20.2'), '>= 18.0.0')).toBe(true);
    expect(satisfies(v('20.20.2'), '>=v12.22.7')).toBe(true);
    expect(satisfies(v('20.20.2'), '^18.19.0 || >=20.6.0')).toBe(true);
  });
});
