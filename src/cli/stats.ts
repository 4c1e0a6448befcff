import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { parseRecordingLine } from '../index.js';
import { createInsights, type Insights, type InsightsSummary } from '../insights/index.js';
import { detectTraceFormat, type TraceFormat } from '../audit/index.js';
import { UsageError, type CliIO, type Command } from './Command.js';

const FORMATS = ['table', 'json', 'md'] as const;
type Format = (typeof FORMATS)[number];

/** A recording file that could not be read or holds a bad line. */
class StatsInputError extends Error {}

/** The `.jsonl` files of the paths: files as given, folders searched (recursively, Patrol runs' `*.patrol.jsonl` left out), in name order. */
async function recordingFiles(paths: readonly string[], io: CliIO): Promise<string[]> {
  const out: string[] = [];
  let patrol = 0;
  const walk = async (dir: string) => {
    const names = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    for (const d of names) {
      if (d.isDirectory()) await walk(join(dir, d.name));
      // A Patrol run's recording (`*.patrol.jsonl`) holds no session's tool calls: not counted.
      else if (d.isFile() && d.name.endsWith('.patrol.jsonl')) patrol++;
      else if (d.isFile() && d.name.endsWith('.jsonl')) out.push(join(dir, d.name));
    }
  };
  for (const path of paths) {
    const s = await stat(path).catch(() => undefined);
    if (!s) throw new StatsInputError(`no such file or folder: ${path}`);
    if (s.isDirectory()) await walk(path);
    else if (path.endsWith('.patrol.jsonl'))
      throw new StatsInputError(
        `${path}: a Patrol run recording holds no session's tool calls (replay replays it on the Patrol machine)`,
      );
    else out.push(path);
  }
  // Said, so the count of recordings matches what a person sees in the folder.
  if (patrol > 0) io.err(`stats: left out ${patrol} Patrol run recording${patrol === 1 ? '' : 's'} (*.patrol.jsonl)`);
  return out;
}

/** What each trace format is called when a file of it is given to stats instead of the audit. */
const EXPORT_NAMES: Record<TraceFormat, string> = {
  openai: 'an OpenAI chat export',
  'ai-sdk': 'an AI SDK message export',
  'claude-code': 'a Claude Code transcript',
  otel: 'an OpenTelemetry span export',
};

/**
 * Why a file whose first entry is no recording entry is not a recording at all, when its line is
 * an export of agent conversations (what `audit` reads): said in one line, instead of every field
 * a recording entry has and the line lacks.
 */
function notARecording(file: string, raw: string, line: number): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const format = detectTraceFormat(value);
  if (format === undefined) return undefined;
  return `${file}: not a recording: line ${line} looks like ${EXPORT_NAMES[format]} (agent conversations); assistant-safety audit ${file} reads those`;
}

/** Streams one file's entries into the insights; returns the line of a torn last line, if any. */
async function addFile(insights: Insights, file: string): Promise<number | undefined> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (e) {
    throw new StatsInputError(`cannot read ${file}: ${(e as Error).message}`);
  }
  let torn: number | undefined;
  let bad: string | undefined;
  try {
    // A last line without its newline may have been cut off mid-write (a crash): the one line allowed to be bad.
    const { size } = await handle.stat();
    const tail = Buffer.alloc(1);
    if (size > 0) await handle.read(tail, 0, 1, size - 1);
    const terminated = size === 0 || tail[0] === 0x0a;
    const lines = createInterface({ input: handle.createReadStream({ highWaterMark: 1 << 20 }), crlfDelay: Infinity });
    let line = 0;
    let entries = 0;
    let lastBad: { line: number; json: boolean; message: string } | undefined;
    for await (const raw of lines) {
      line += 1;
      if (raw.trim() === '') continue;
      if (lastBad) {
        // An export may open with a line audit reads past (a transcript's file-history-snapshot, a header
        // row): a conversation on the next line still makes the file an export, not a broken recording.
        bad =
          (entries === 0 ? notARecording(file, raw, line) : undefined) ?? `${file}:${lastBad.line}: ${lastBad.message}`;
        break;
      }
      const parsed = parseRecordingLine(raw);
      if (parsed.ok) {
        insights.add(parsed.entry, file);
        entries++;
        continue;
      }
      // A first line that is an agent's conversation: the file is an export for the audit, not a recording.
      const other = entries === 0 && parsed.json ? notARecording(file, raw, line) : undefined;
      if (other !== undefined) {
        bad = other;
        break;
      }
      lastBad = { line, json: parsed.json, message: parsed.message };
    }
    if (lastBad && bad === undefined) {
      // The bad line was the last one.
      if (!terminated && !lastBad.json) torn = lastBad.line;
      else bad = `${file}:${lastBad.line}: ${lastBad.message}`;
    }
  } catch (e) {
    throw new StatsInputError(`cannot read ${file}: ${(e as Error).message}`);
  } finally {
    await handle.close().catch(() => undefined);
  }
  if (bad !== undefined) throw new StatsInputError(bad);
  return torn;
}

const percent = (n: number, of: number) => (of === 0 ? '—' : `${((100 * n) / of).toFixed(1)} %`);
const seconds = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);
const sorted = (record: Record<string, number>) =>
  Object.entries(record).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));

/** The aggregates as sections of rows: [title, [label, value][]]. */
function sections(s: InsightsSummary): Array<[string, Array<[string, string]>]> {
  const blockedTotal = Object.values(s.blocked).reduce((a, b) => a + b, 0);
  const calls = s.toolCalls.allowed + s.toolCalls.blocked;
  const ttv = s.writes.timeToVerifyMs;
  return [
    [
      'overview',
      [
        ['sessions', String(s.sessions)],
        ['entries', String(s.entries)],
        ['tool calls decided', String(calls)],
        ['tool calls blocked', `${s.toolCalls.blocked} (${percent(s.toolCalls.blocked, calls)})`],
        ['blocked decisions (final answers included)', String(blockedTotal)],
      ],
    ],
    ['blocked by reason code', sorted(s.blocked).map(([k, v]) => [k, String(v)])],
    ['blocked by tool', sorted(s.blockedByTool).map(([k, v]) => [k, String(v)])],
    ['blocked by state', sorted(s.blockedByState).map(([k, v]) => [k, String(v)])],
    ['final answers refused by state', sorted(s.finalAnswerBlocks).map(([k, v]) => [k, String(v)])],
    [
      'self-correction (a blocked call followed by a success of the same tool)',
      [
        ['blocked tool calls', String(s.selfCorrection.blocked)],
        ['corrected', String(s.selfCorrection.corrected)],
        ['rate', s.selfCorrection.rate === null ? '—' : percent(s.selfCorrection.corrected, s.selfCorrection.blocked)],
      ],
    ],
    [
      'writes',
      [
        ['landed', String(s.writes.landed)],
        ['verified', String(s.writes.verified)],
        ['never verified', String(s.writes.unverified)],
        ...(ttv
          ? ([
              ['time to verification: median', seconds(ttv.median)],
              ['time to verification: p90', seconds(ttv.p90)],
              ['time to verification: max', seconds(ttv.max)],
            ] as Array<[string, string]>)
          : []),
      ],
    ],
    ...(s.wouldBlock
      ? [['shadow mode: would have blocked, by reason code', sorted(s.wouldBlock).map(([k, v]) => [k, String(v)])]]
      : []),
    ...(s.attested
      ? [['attested by a person, by the block answered', sorted(s.attested).map(([k, v]) => [k, String(v)])]]
      : []),
    ...(s.orphaned
      ? [['orphaned calls, by the holder whose lease ran out', sorted(s.orphaned).map(([k, v]) => [k, String(v)])]]
      : []),
  ] as Array<[string, Array<[string, string]>]>;
}

function table(s: InsightsSummary): string {
  const lines: string[] = [];
  for (const [title, rows] of sections(s)) {
    lines.push(title);
    if (rows.length === 0) lines.push('  (none)');
    const width = Math.max(0, ...rows.map(([k]) => k.length));
    for (const [k, v] of rows) lines.push(`  ${k.padEnd(width)}  ${v}`);
    lines.push('');
  }
  return lines.join('\n').trimEnd();
}

function markdown(s: InsightsSummary): string {
  const lines: string[] = [];
  for (const [title, rows] of sections(s)) {
    lines.push(`### ${title}`, '');
    if (rows.length === 0) {
      lines.push('(none)', '');
      continue;
    }
    lines.push('| | |', '|---|---:|');
    for (const [k, v] of rows) lines.push(`| ${k.replace(/\|/g, '\\|')} | ${v} |`);
    lines.push('');
  }
  return lines.join('\n').trimEnd();
}

/** Aggregates the recordings under `paths`. */
async function statsOf(paths: readonly string[], io: CliIO): Promise<{ summary: InsightsSummary; files: string[] }> {
  const insights = createInsights();
  const files = await recordingFiles(paths, io);
  for (const file of files) {
    const torn = await addFile(insights, file);
    if (torn !== undefined)
      io.err(`stats: ${file}: line ${torn} is torn (cut off mid-write); counted the lines before it`);
  }
  return { summary: insights.summary(), files };
}

export const statsCommand: Command = {
  name: 'stats',
  summary: 'aggregate recordings: blocks by reason, tool and state, self-correction, time to verification',
  usage: `assistant-safety stats FILE|DIR... [--format table|json|md]

Reads JSON Lines recordings (files, or every .jsonl file under a folder) and
prints what the gate did across them: sessions and entries; blocked decisions
by reason code (the tool loop's LOOK_BEFORE_ASKING and LOOP_DETECTED
included), by tool and by state; the self-correction rate (a blocked call
followed, in the same session, by a successful call of the same tool); and
writes, with how long each waited for verification evidence.

  --format table  aligned text (default)
  --format md     Markdown tables
  --format json   one JSON object (wouldBlock, attested and orphaned appear when
                  a shadow run, a person or an orphaned call added any): sessions, entries, blocked (reason code ->
                  count), blockedByTool, blockedByState, toolCalls,
                  finalAnswerBlocks, selfCorrection, writes, files

Exit codes: 0 done, 2 a missing file or a bad line (named with its line number; a file of agent
conversations, what assistant-safety audit reads, is named as such).`,
  async run(argv, io) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { format: { type: 'string', default: 'table' } },
    });
    if (positionals.length === 0) throw new UsageError('stats needs at least one recording file or folder');
    const format = values.format as Format;
    if (!FORMATS.includes(format)) throw new UsageError(`--format: one of ${FORMATS.join(', ')}, got "${format}"`);
    let result;
    try {
      result = await statsOf(positionals, io);
    } catch (e) {
      if (e instanceof StatsInputError) {
        io.err(`stats: ${e.message}`);
        return 2;
      }
      throw e;
    }
    const { summary, files } = result;
    if (format === 'json') io.out(JSON.stringify({ ...summary, files }, null, 2));
    else {
      const header = `${files.length} recording${files.length === 1 ? '' : 's'}`;
      io.out(format === 'md' ? `## ${header}\n\n${markdown(summary)}` : `${header}\n\n${table(summary)}`);
    }
    return 0;
  },
};
