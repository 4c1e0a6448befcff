import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectTraceFormat } from 'assistant-safety/audit';
import { main } from '../../src/cli/main.js';
import { aiSdkModelRow, aiSdkUIRow, claudeCodeLines, generateTraces, openaiRow, otelExport } from './traceModel.js';

/*
 * Detection names each format from one value; `--format` forces one, and input in another format
 * is then reported as malformed, field by field, not guessed at.
 */

const [trace] = generateTraces(1);

describe('format detection and --format', () => {
  it('should tell each format from one value, and a metadata row from none', () => {
    expect(detectTraceFormat(openaiRow(trace!, true))).toBe('openai');
    expect(detectTraceFormat(aiSdkModelRow(trace!))).toBe('ai-sdk');
    expect(detectTraceFormat(aiSdkUIRow(trace!))).toBe('ai-sdk');
    expect(detectTraceFormat(claudeCodeLines(trace!)[1])).toBe('claude-code');
    expect(detectTraceFormat(otelExport(trace!))).toBe('otel');
    expect(detectTraceFormat({ export: 'chat logs' })).toBeUndefined();
  });

  it('should read AI SDK rows as OpenAI ones when told to, and report what does not fit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-format-'));
    writeFileSync(join(dir, 'model.jsonl'), JSON.stringify(aiSdkModelRow(trace!)) + '\n');
    const out: string[] = [];
    const code = await main(['audit', join(dir, 'model.jsonl'), '--format', 'openai'], {
      out: (t) => out.push(t),
      err: () => {},
    });
    expect(code).toBe(1); // not one trace audited: the report is written, and the exit says so
    const report = JSON.parse(out.join('\n'));
    expect(report.traces).toBe(0);
    expect(report.malformed).toBe(1);
    expect(report.errors[0]).toMatchObject({ line: 1, trace: trace!.id, path: 'messages[2].tool_call_id' });
  });

  it('should refuse a format it does not know', async () => {
    const err: string[] = [];
    const code = await main(['audit', 'x.jsonl', '--format', 'langsmith'], { out: () => {}, err: (t) => err.push(t) });
    expect(code).toBe(2);
    expect(err.join('\n')).toContain('--format: one of auto, openai, ai-sdk, claude-code, otel, got "langsmith"');
  });
});
