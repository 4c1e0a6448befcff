import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecording, replayRecording } from 'assistant-safety';
import { main } from '../../src/cli/main.js';
import { claudeCodeLines, generateTraces, openaiRow, RULES } from './traceModel.js';

/*
 * `audit --recordings DIR` writes one recording a trace, its session id the trace id, and every
 * one replays with no divergence; running again replaces them rather than appending.
 */

async function audit(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['audit', ...argv], { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, report: JSON.parse(out.join('\n')), err: err.join('\n') };
}

describe('audit --recordings', () => {
  it('should write one recording a trace that replays with no divergence, its session named after the trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-rec-'));
    const traces = generateTraces(30, 7);
    writeFileSync(join(dir, 'rules.json'), JSON.stringify(RULES));
    writeFileSync(join(dir, 'export.jsonl'), traces.map((t) => JSON.stringify(openaiRow(t, true))).join('\n') + '\n');
    mkdirTranscript(dir, traces[0]!.id);
    const recordings = join(dir, 'recordings');
    const args = [
      join(dir, 'export.jsonl'),
      join(dir, 'transcript.jsonl'),
      '--rules',
      join(dir, 'rules.json'),
      '--recordings',
      recordings,
    ];
    const first = await audit(...args);
    expect(first.code).toBe(0);
    // Two traces share an id (the row and the transcript): both kept, the second under a suffixed name.
    const files = readdirSync(recordings).sort();
    expect(files).toHaveLength(first.report.traces);
    expect(files).toContain(`${traces[0]!.id}-2.jsonl`);
    let blockedEntries = 0;
    for (const file of files) {
      const entries = parseRecording(readFileSync(join(recordings, file), 'utf8'));
      const sessions = new Set(entries.map((e) => e.session));
      expect([...sessions]).toEqual([file.replace(/(-2)?\.jsonl$/, '')]);
      expect(entries[0]!.call.type).toBe('create');
      blockedEntries += entries.filter((e) => e.decision === 'blocked').length;
      expect(replayRecording(entries).divergences).toEqual([]);
    }
    expect(blockedEntries).toBe(first.report.calls.blocked + first.report.finalAnswersBlocked);

    // Again: the same files, replaced, not appended to.
    const sizes = files.map((f) => readFileSync(join(recordings, f), 'utf8').length);
    await audit(...args);
    expect(readdirSync(recordings).sort()).toEqual(files);
    expect(files.map((f) => readFileSync(join(recordings, f), 'utf8').length)).toEqual(sizes);
  });
});

function mkdirTranscript(dir: string, id: string) {
  const [model] = generateTraces(1, 7);
  writeFileSync(
    join(dir, 'transcript.jsonl'),
    claudeCodeLines({ ...model!, id })
      .map((l) => JSON.stringify(l))
      .join('\n') + '\n',
  );
}
