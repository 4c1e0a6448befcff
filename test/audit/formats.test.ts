import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditReport } from 'assistant-safety/audit';
import { auditFiles } from 'assistant-safety/node';
import {
  aiSdkModelRow,
  aiSdkUIRow,
  answered,
  claudeCodeLines,
  countByHand,
  generateTraces,
  openaiRow,
  otelExport,
  RULES,
  type ModelTrace,
} from './traceModel.js';

/*
 * The same generated traces written in every format the audit reads, audited with auto-detection,
 * and every count of the JSON report checked against the count done in the test from the model.
 */

const TRACES = generateTraces(60);
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

/** Writes the traces in one format; returns the paths to audit and the model the format can hold. */
const WRITERS: Record<string, (dir: string) => { paths: string[]; model: ModelTrace[]; skippedRows: number }> = {
  openai: (dir) => {
    // A metadata header row (skipped, not a trace); arguments as JSON strings and as objects.
    const rows = [{ export: 'chat logs', version: 3 }, ...TRACES.map((t, i) => openaiRow(t, i % 2 === 0))];
    writeFileSync(join(dir, 'export.jsonl'), jsonl(rows));
    return { paths: [join(dir, 'export.jsonl')], model: TRACES, skippedRows: 1 };
  },
  'openai (one JSON file, an array)': (dir) => {
    writeFileSync(join(dir, 'export.json'), JSON.stringify(TRACES.map((t) => openaiRow(t, true))));
    return { paths: [join(dir, 'export.json')], model: TRACES, skippedRows: 0 };
  },
  'ai-sdk ModelMessage': (dir) => {
    writeFileSync(join(dir, 'model.jsonl'), jsonl(TRACES.map(aiSdkModelRow)));
    return { paths: [join(dir, 'model.jsonl')], model: TRACES, skippedRows: 0 };
  },
  'ai-sdk UIMessage': (dir) => {
    writeFileSync(join(dir, 'ui.jsonl'), jsonl(TRACES.map(aiSdkUIRow)));
    return { paths: [join(dir, 'ui.jsonl')], model: TRACES, skippedRows: 0 };
  },
  'claude-code': (dir) => {
    const sub = join(dir, 'projects');
    mkdirSync(sub);
    for (const t of TRACES) writeFileSync(join(sub, `${t.id}.jsonl`), jsonl(claudeCodeLines(t)));
    return { paths: [sub], model: TRACES, skippedRows: 0 };
  },
  otel: (dir) => {
    writeFileSync(join(dir, 'spans.jsonl'), jsonl(TRACES.map(otelExport)));
    // Spans end, so a cut call still has a result: the model with every result given.
    return { paths: [join(dir, 'spans.jsonl')], model: answered(TRACES), skippedRows: 0 };
  },
};

describe('auditing generated traces in each format', () => {
  it('should hold the fixed cases: parallel calls, a failed result, a trace cut on a tool call', () => {
    expect(TRACES[0]!.batches[0]!.length).toBe(2);
    expect(TRACES[1]!.batches[0]![0]!.result).toBe('failed');
    expect(TRACES[2]!.final).toBe(false);
  });

  for (const [name, write] of Object.entries(WRITERS)) {
    it(`should count what the gate would have done to ${name} traces as the model does`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'audit-formats-'));
      const { paths, model, skippedRows } = write(dir);
      const report = AuditReport.parse(await auditFiles(paths, { rules: RULES }));
      const hand = countByHand(model);

      expect(report.errors).toEqual([]);
      expect(report.traces).toBe(hand.traces);
      expect(report.skipped).toBe(skippedRows);
      expect(report.malformed).toBe(0);
      expect(report.tracesWithBlock).toBe(hand.tracesWithBlock);
      expect(report.finalAnswersChecked).toBe(hand.finalAnswersChecked);
      expect(report.finalAnswersBlocked).toBe(hand.finalAnswersBlocked);
      expect(report.tracesEndingOnToolCall).toBe(hand.tracesEndingOnToolCall);
      expect(report.calls).toEqual(hand.calls);
      expect(report.blocked).toEqual(hand.blocked);
      expect(report.blockedByTool).toEqual(hand.blockedByTool);
      expect(report.blockedByState).toEqual(hand.blockedByState);
      expect(report.firstBlock.atCall).toEqual(hand.atCall);
      expect(Object.values(report.firstBlock.atPart).reduce((a, b) => a + b, 0)).toBe(hand.tracesWithBlock);
      expect(report.escalations).toEqual(hand.escalations);
      expect(report.decisionTimeUs.calls).toBe(hand.calls.total);
      expect(report.decisionTimeUs.p50).toBeLessThanOrEqual(report.decisionTimeUs.p99);
      const topCounts = [...hand.sequences.values()].sort((a, b) => b - a).slice(0, 20);
      expect(report.sequences.map((s) => s.traces)).toEqual(topCounts);
      for (const s of report.sequences) expect(hand.sequences.get(JSON.stringify(s.tools))).toBe(s.traces);
      expect(Object.fromEntries(report.tools.map((t) => [t.tool, { calls: t.calls, blocked: t.blocked }]))).toEqual(
        Object.fromEntries(hand.tools),
      );
      expect(report.tools.find((t) => t.tool === 'list_vms')).toMatchObject({
        kinds: { resolve: expect.any(Number) },
        decidedBy: ['rules'],
      });
      expect(report.undeclared).toEqual(['delete_vm']);
      expect(report.files.every((f) => f.format !== null)).toBe(true);
      // The generated traces block something, or the test would prove little.
      expect(hand.tracesWithBlock).toBeGreaterThan(5);
      expect(hand.finalAnswersBlocked).toBeGreaterThan(0);
    });
  }
});
