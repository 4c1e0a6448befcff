import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The instrumentation's boundaries: @opentelemetry/api is reached from
 * assistant-safety/otel only, never from the root entry; the insights module
 * behind stats, /metrics and the app imports no `node:` module.
 */

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Every module specifier `file` imports or re-exports. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:import|export)\s[^;]*?from\s+'([^']+)'/g)].map((m) => m[1]!);
}

/** The files reachable from `entry` through relative imports, and every bare specifier they import. */
function graph(entry: string): { files: Set<string>; bare: Set<string> } {
  const files = new Set<string>();
  const bare = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of importsOf(file)) {
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      else bare.add(spec);
    }
  };
  visit(entry);
  return { files, bare };
}

describe('instrumentation boundaries', () => {
  it('should keep @opentelemetry out of the root entry', () => {
    const { bare } = graph(join(SRC, 'index.ts'));
    expect([...bare].filter((s) => s.startsWith('@opentelemetry'))).toEqual([]);
  });

  it('should reach @opentelemetry/api, and nothing else of OpenTelemetry, from the otel subpath', () => {
    const { bare } = graph(join(SRC, 'otel', 'index.ts'));
    expect([...bare].filter((s) => s.startsWith('@opentelemetry'))).toEqual(['@opentelemetry/api']);
  });

  it('should import no node: module and no OpenTelemetry in the insights subpath', () => {
    const { files, bare } = graph(join(SRC, 'insights', 'index.ts'));
    const own = [...files].filter((f) => f.startsWith(join(SRC, 'insights')));
    expect(own.length).toBeGreaterThan(3);
    for (const file of own) {
      expect(
        importsOf(file).filter((s) => s.startsWith('node:') || s.startsWith('@opentelemetry')),
        file,
      ).toEqual([]);
    }
    expect([...bare].filter((s) => s.startsWith('@opentelemetry'))).toEqual([]);
  });
});
