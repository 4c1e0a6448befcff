import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { auditFiles } from '../src/node/index.js';
import { gc, makeFigure, ratioText, type Figure } from './measure.js';

export interface AuditSizes {
  /** OpenAI-format traces in the generated export, about 20 tool calls each. */
  traces: number;
  /** Passes of each kind (audit, bare JSON.parse), interleaved. */
  runs: number;
}

const MB = 1024 * 1024;
const RULES = { tools: { list_vms: 'resolve', get_status: 'read', restart_vm: 'write', get_logs: 'read' } };

/**
 * Writes `traces` OpenAI-format conversations, one a line, streamed (never held whole): each looks
 * up, reads, then writes and checks in rounds (some rounds skip the check, some calls fail, some
 * batches run two calls), so the gate allows most calls and blocks some. Returns the calls written.
 */
function generateExport(path: string, traces: number): { calls: number; bytes: number } {
  const fd = openSync(path, 'w');
  let seed = 42;
  const r = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  let calls = 0;
  const call = (id: string, name: string, args: object) => ({
    id,
    type: 'function',
    function: { name, arguments: JSON.stringify(args) },
  });
  try {
    for (let t = 0; t < traces; t++) {
      const messages: unknown[] = [{ role: 'user', content: `restart vm ${t % 500}` }];
      let n = 0;
      const batch = (...names: string[]) => {
        const ids = names.map(() => `call_${t}_${n++}`);
        messages.push({
          role: 'assistant',
          content: null,
          tool_calls: names.map((name, i) => call(ids[i]!, name, { vm: t % 500 })),
        });
        for (const id of ids)
          messages.push({
            role: 'tool',
            tool_call_id: id,
            content: '{"ok":true}',
            error: r() < 0.05 ? 'timeout' : null,
          });
        calls += names.length;
      };
      batch('list_vms');
      batch('get_status', 'get_logs');
      while (n < 18) {
        batch('restart_vm');
        if (r() < 0.8) batch('get_status');
        else batch('restart_vm');
        if (r() < 0.3) batch('get_status', 'get_logs');
      }
      messages.push({ role: 'assistant', content: 'Done.' });
      writeSync(fd, JSON.stringify({ id: `trace-${t}`, messages }) + '\n');
    }
  } finally {
    closeSync(fd);
  }
  return { calls, bytes: statSync(path).size };
}

/** The baseline: the same file streamed line by line through bare JSON.parse. */
async function parseOnly(path: string): Promise<number> {
  let rows = 0;
  for await (const line of createInterface({
    input: createReadStream(path, { highWaterMark: 1 << 20 }),
    crlfDelay: Infinity,
  })) {
    if (line !== '') {
      JSON.parse(line);
      rows++;
    }
  }
  return rows;
}

/**
 * Part 9: the audit. Generates an OpenAI-format export of `traces` conversations (about 20 tool
 * calls each) into a temp file, audits it with `auditFiles` (each trace its own session), and
 * streams it through bare `JSON.parse` as the baseline: traces and calls per second, and how much
 * the heap grew from a tenth of the way to the end (bounded memory: it should not grow with the
 * traces). The gc at a tenth of the way is inside the timed pass (one full collection, a few ms).
 */
export async function auditFigures({ traces = 5_000, runs = 2 }: Partial<AuditSizes> = {}): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'assistant-safety-bench-audit-'));
  try {
    const path = join(dir, 'export.jsonl');
    const { calls, bytes } = generateExport(path, traces);
    const auditMs: number[] = [];
    const parseMs: number[] = [];
    const growth: number[] = [];
    for (let i = 0; i < runs; i++) {
      gc();
      let t = performance.now();
      if ((await parseOnly(path)) !== traces) throw new Error('the baseline read a different number of rows');
      parseMs.push(performance.now() - t);
      gc();
      let atTenth: number | undefined;
      t = performance.now();
      const report = await auditFiles([path], {
        rules: RULES,
        onProgress: (p) => {
          if (atTenth === undefined && p.traces >= traces / 10) {
            gc();
            atTenth = process.memoryUsage().heapUsed;
          }
        },
      });
      auditMs.push(performance.now() - t);
      gc();
      growth.push((process.memoryUsage().heapUsed - (atTenth ?? 0)) / MB);
      if (report.traces !== traces || report.calls.total !== calls)
        throw new Error(
          `the audit read ${report.traces} traces and ${report.calls.total} calls, expected ${traces} and ${calls}`,
        );
      if (report.calls.blocked === 0)
        throw new Error('the generated traces had no block: the bench would measure an idle gate');
    }
    const what = `${traces.toLocaleString('en-US')} traces, ${calls.toLocaleString('en-US')} calls, ${(bytes / MB).toFixed(0)} MB`;
    return [
      makeFigure({
        suite: 'audit',
        name: 'audit of an OpenAI-format export: traces',
        unit: 'traces/s',
        better: 'higher',
        runs: auditMs.map((ms) => (traces / ms) * 1000),
        baseline: {
          name: 'bare JSON.parse of the same lines, streamed',
          runs: parseMs.map((ms) => (traces / ms) * 1000),
          describe: (x) => ratioText(x, 'slower'),
        },
        note: `${what}; each trace a fresh session`,
      }),
      makeFigure({
        suite: 'audit',
        name: 'audit of an OpenAI-format export: tool calls',
        unit: 'calls/s',
        better: 'higher',
        runs: auditMs.map((ms) => (calls / ms) * 1000),
        baseline: {
          name: 'bare JSON.parse of the same lines, streamed',
          runs: parseMs.map((ms) => (calls / ms) * 1000),
          describe: (x) => ratioText(x, 'slower'),
        },
        note: what,
      }),
      makeFigure({
        suite: 'audit',
        name: 'audit: heap growth from a tenth of the traces to the end',
        unit: 'MB',
        better: 'lower',
        runs: growth.map((g) => Math.max(g, 0.01)),
        note: 'bounded memory: flat whatever the number of traces',
      }),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
