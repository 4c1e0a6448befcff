import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditFiles, AuditInputError } from 'assistant-safety/node';
import { runCli } from '../cli/runCli.js';
import { generateTraces, openaiRow } from './traceModel.js';

/*
 * Where the report and the recordings go is checked before the audit runs: a mistyped folder is
 * refused in one line (exit 2), not with a stack trace after the whole run or halfway through the
 * recordings. The report's form is its extension's, in any case.
 */

function exportIn(dir: string): string {
  const path = join(dir, 'export.jsonl');
  writeFileSync(
    path,
    generateTraces(3, 2)
      .map((t) => JSON.stringify(openaiRow(t, true)) + '\n')
      .join(''),
  );
  return path;
}

describe('audit output paths', () => {
  it('should refuse an --out in a missing folder in one line, before auditing anything', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-out-'));
    const recordings = join(dir, 'recordings');
    const out = join(dir, 'some', 'missing', 'r.md');
    // Before: the audit ran (the recordings were written), then an ENOENT stack trace.
    const r = await runCli(['audit', exportIn(dir), '--recordings', recordings, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`audit: --out ${out}: no such folder: ${join(dir, 'some', 'missing')}`);
    expect(r.out).toBe('');
    expect(existsSync(recordings)).toBe(false);
  });

  it('should refuse an --out under a file, or one that is a folder, naming what is wrong', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-out-'));
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'not a folder\n');
    const input = exportIn(dir);
    const under = await runCli(['audit', input, '--out', join(file, 'r.json')]);
    expect(under.code).toBe(2);
    expect(under.err).toBe(`audit: --out ${join(file, 'r.json')}: not a folder: ${file}`);
    mkdirSync(join(dir, 'report.md'));
    const folder = await runCli(['audit', input, '--out', join(dir, 'report.md')]);
    expect(folder.code).toBe(2);
    expect(folder.err).toBe(`audit: --out ${join(dir, 'report.md')}: a folder, not a file`);
  });

  it('should refuse --recordings under a file in one line, before any recording, and make a missing folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-rec-'));
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'not a folder\n');
    const input = exportIn(dir);
    const recordings = join(file, 'recordings');
    // Before: an ENOTDIR stack trace from the first recording.
    const r = await runCli(['audit', input, '--recordings', recordings]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`audit: --recordings ${recordings}: not a folder: ${file}`);
    expect(r.out).toBe('');
    // The library refuses before the first trace too.
    let progressed = false;
    const refused = auditFiles([input], { recordings, onProgress: () => (progressed = true) });
    await expect(refused).rejects.toThrow(AuditInputError);
    await expect(refused).rejects.toThrow(`recordings ${recordings}: not a folder: ${file}`);
    expect(progressed).toBe(false);
    // A folder that does not exist yet is made, parents and all.
    const nested = join(dir, 'a', 'b', 'recordings');
    const ok = await runCli(['audit', input, '--recordings', nested, '--out', join(dir, 'r.json')]);
    expect(ok.code).toBe(0);
    expect(existsSync(nested)).toBe(true);
  });

  it('should take the report form from the extension in any case', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-ext-'));
    const input = exportIn(dir);
    for (const [name, start] of [
      ['r.JSON', '{'],
      ['r.Md', '# What the gate would have done'],
      ['r.HTML', '<!doctype html>'],
    ] as const) {
      // Before: --out: a .json, .md or .html file, got "r.JSON".
      const r = await runCli(['audit', input, '--out', join(dir, name)]);
      expect(r.code).toBe(0);
      expect(readFileSync(join(dir, name), 'utf8').startsWith(start)).toBe(true);
    }
  });
});
