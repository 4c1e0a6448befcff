import { createWriteStream, mkdtempSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditFiles } from 'assistant-safety/node';
import { main } from '../../src/cli/main.js';
import { claudeCodeLines, generateTraces, openaiRow, otelExport } from './traceModel.js';

/*
 * Malformed input is reported with its file, line and field, and the rest of the run completes:
 * a line that is not JSON, an unknown role, a tool result without a call, a 50 MB line.
 */

const good = generateTraces(4, 3).map((t) => JSON.stringify(openaiRow(t, true)));

/** A file of good rows around bad ones; returns its path. */
function exportWith(dir: string, bad: string[]): string {
  const path = join(dir, 'export.jsonl');
  writeFileSync(path, [good[0], ...bad.flatMap((b, i) => [b, good[i + 1] ?? good[0]])].join('\n') + '\n');
  return path;
}

describe('malformed input', () => {
  it('should exit 1 and say so when not one trace could be audited, still writing the report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-none-'));
    const path = join(dir, 'README.jsonl');
    writeFileSync(path, `# a README, not an export\n${'some prose\n'.repeat(7)}`);
    const err: string[] = [];
    const out: string[] = [];
    // Before: exit 0, with only the counts to show that nothing was audited.
    const code = await main(['audit', path], { out: (t) => out.push(t), err: (t) => err.push(t) });
    expect(code).toBe(1);
    expect(JSON.parse(out.join('\n')).traces).toBe(0);
    expect(err.at(-1)).toBe(
      'audit: no trace was audited (8 skipped, 8 of them malformed, in 1 file): is the input an export of agent conversations? See --format',
    );
    // A few of the problems, not a screenful ahead of the line that says what is wrong.
    expect(err.filter((l) => / not JSON: /.test(l))).toHaveLength(5);
    expect(err).toContain('audit: ... and 3 more problems');
  });

  it('should report a bad JSON line, an unknown role and a result without a call, each with file and line, and audit the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-bad-'));
    const path = exportWith(dir, [
      '{"messages": [ not json',
      JSON.stringify({ id: 'robot', messages: [{ role: 'robot', content: 'beep' }] }),
      JSON.stringify({
        id: 'orphan',
        messages: [
          { role: 'user', content: 'x' },
          { role: 'tool', tool_call_id: 'call_9', content: 'ok' },
        ],
      }),
    ]);
    const err: string[] = [];
    const out: string[] = [];
    const code = await main(['audit', path], { out: (t) => out.push(t), err: (t) => err.push(t) });
    expect(code).toBe(0);
    const report = JSON.parse(out.join('\n'));
    expect(report.traces).toBe(4);
    expect(report.malformed).toBe(3);
    expect(report.skipped).toBe(3);
    expect(report.errorCount).toBe(3);
    expect(report.errors).toEqual([
      { file: path, line: 2, path: '', message: expect.stringMatching(/^not JSON: /) },
      {
        file: path,
        line: 4,
        trace: 'robot',
        path: 'messages[0].role',
        message: 'expected one of system, developer, user, assistant, tool; got "robot"',
      },
      {
        file: path,
        line: 6,
        trace: 'orphan',
        path: 'messages[1]',
        message: 'a tool result for "call_9", but no earlier tool call has that id',
      },
    ]);
    expect(err.join('\n')).toContain(`${path}:4 messages[0].role: expected one of`);
  });

  it('should name the bad field of a tool call and of a transcript line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-bad-'));
    const path = exportWith(dir, [
      JSON.stringify({
        id: 'noname',
        messages: [{ role: 'assistant', tool_calls: [{ id: 'c1', function: { arguments: '{}' } }] }],
      }),
    ]);
    const lines = claudeCodeLines(generateTraces(1, 5)[0]!).map((l) => JSON.stringify(l));
    lines.splice(
      3,
      0,
      JSON.stringify({ type: 'assistant', sessionId: 'trace-x', message: { role: 'narrator', content: 'x' } }),
    );
    writeFileSync(join(dir, 'transcript.jsonl'), lines.join('\n') + '\n');
    const report = await auditFiles([path, join(dir, 'transcript.jsonl')]);
    expect(report.errors).toEqual([
      {
        file: path,
        line: 2,
        trace: 'noname',
        path: 'messages[0].tool_calls[0].function.name',
        message: 'Invalid input: expected string, received undefined; it is missing',
      },
      {
        file: join(dir, 'transcript.jsonl'),
        line: 4,
        trace: 'trace-x',
        path: 'message.role',
        message: 'expected one of user, assistant; got "narrator"',
      },
    ]);
    expect(report.traces).toBe(3); // the two rows around the bad one, and the transcript's own session
  });

  it('should report a 50 MB line as too long and read the lines after it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-big-'));
    const path = join(dir, 'big.jsonl');
    const stream = createWriteStream(path);
    stream.write(good[0] + '\n');
    const chunk = 'x'.repeat(1024 * 1024);
    stream.write('{"messages": [{"role": "user", "content": "');
    for (let i = 0; i < 50; i++) if (!stream.write(chunk)) await once(stream, 'drain');
    stream.write('"}]}\n');
    stream.write(good[1] + '\n');
    stream.end();
    await once(stream, 'finish');
    const before = process.memoryUsage().rss;
    const report = await auditFiles([path]);
    expect(report.traces).toBe(2);
    expect(report.errors).toEqual([
      {
        file: path,
        line: 2,
        path: '',
        message: `longer than ${16 * 1024 * 1024} bytes (the line length limit); not read`,
      },
    ]);
    // The line was not held: memory grew by well under its size.
    expect(process.memoryUsage().rss - before).toBeLessThan(40 * 1024 * 1024);
  });
});

describe('a .json export too large to read whole', () => {
  const row = (i: number) => ({
    id: `r${i}`,
    messages: [
      { role: 'user', content: 'x'.repeat(1000) },
      { role: 'assistant', content: 'ok' },
    ],
  });

  it('should say once that a JSON document over 16 MiB must be JSON Lines, not that it is no export', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-bigjson-'));
    const path = join(dir, 'export.json');
    // One JSON array on one line, 17 MiB and more.
    const stream = createWriteStream(path);
    stream.write('[');
    for (let i = 0; i < 17_500; i++)
      if (!stream.write(`${i ? ',' : ''}${JSON.stringify(row(i))}`)) await once(stream, 'drain');
    stream.write(']\n');
    stream.end();
    await once(stream, 'finish');
    const err: string[] = [];
    const out: string[] = [];
    const code = await main(['audit', path], { out: (t) => out.push(t), err: (t) => err.push(t) });
    expect(code).toBe(1);
    // Before: "longer than 16777216 bytes (the line length limit)", then "is the input an export of agent conversations?".
    expect(err).toEqual([
      expect.stringMatching(
        /^audit: .*export\.json:1: a JSON document larger than 16 MiB must be given as JSON Lines, one conversation per line \(a \.jsonl file\): this 1\d\.\d MiB file was read as JSON Lines, and its line 1 is longer than 16777216 bytes \(the line length limit\); not read$/,
      ),
      'audit: no trace was audited (1 skipped, 1 of them malformed, in 1 file)',
    ]);
  });

  it('should say so once for an indented document too, and read a large .json that is JSON Lines', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-bigjson-'));
    const pretty = join(dir, 'pretty.json');
    writeFileSync(pretty, JSON.stringify([row(1), row(2)], null, 2));
    const lines = join(dir, 'lines.json');
    writeFileSync(lines, `${JSON.stringify(row(1))}\n${JSON.stringify(row(2))}\n`);
    const report = await auditFiles([pretty, lines], { maxLineBytes: 2048 });
    expect(report.traces).toBe(2); // the JSON Lines file's
    expect(report.errors).toEqual([
      {
        file: pretty,
        line: 1,
        path: '',
        message: expect.stringMatching(
          /^a JSON document larger than 2048 bytes must be given as JSON Lines, one conversation per line \(a \.jsonl file\): this \d+ bytes file was read as JSON Lines, and its line 1 is not JSON \(.+\); not read$/,
        ),
      },
    ]);
  });
});

describe('malformed spans', () => {
  it('should name a span whose start time is not a number, and audit the other traces of the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-otel-'));
    const [a, b] = generateTraces(2, 9).map((t, i) => ({ ...t, id: `t${i}` }));
    const broken = otelExport(b!);
    (broken.resourceSpans[0]!.scopeSpans[0]!.spans[1] as { startTimeUnixNano: string }).startTimeUnixNano = 'soon';
    const path = join(dir, 'spans.jsonl');
    writeFileSync(path, `${JSON.stringify(otelExport(a!))}\n${JSON.stringify(broken)}\n`);
    const report = await auditFiles([path]);
    expect(report.traces).toBe(1);
    expect(report.errors).toEqual([
      {
        file: path,
        line: 2,
        trace: 't1',
        path: 'resourceSpans[0].scopeSpans[0].spans[1].startTimeUnixNano',
        message: 'expected nanoseconds since the epoch; got "soon"',
      },
    ]);
  });
});
