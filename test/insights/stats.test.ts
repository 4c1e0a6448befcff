import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InsightsSummary } from 'assistant-safety/insights';
import { main } from '../../src/cli/main.js';

/*
 * `assistant-safety stats` over the shipped recordings, checked against a
 * count done here straight from the JSON lines (not through the insights
 * module).
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RECORDINGS = join(ROOT, 'recordings');

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

interface Line {
  session: string;
  seq: number;
  at: number;
  call: { type: string; id?: string; tool?: string; ok?: boolean };
  decision: string;
  reasonCode?: string;
  before: string;
  context: { writeEpoch: number; readAfterWrite: boolean };
}

/** The counts, from the raw lines. */
function countByHand(dir: string) {
  const sessions = new Set<string>();
  let entries = 0;
  const blocked: Record<string, number> = {};
  const blockedByTool: Record<string, number> = {};
  const blockedByState: Record<string, number> = {};
  let blockedCalls = 0;
  let corrected = 0;
  let landed = 0;
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.jsonl') && !n.endsWith('.patrol.jsonl'))) {
    const lines = readFileSync(join(dir, name), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Line);
    entries += lines.length;
    for (const id of new Set(lines.map((l) => l.session))) {
      sessions.add(`${name}/${id}`);
      const own = lines.filter((l) => l.session === id);
      // The tool of each begun call id, for its end.
      const begun = new Map<string, string>();
      const successTool = own.map((l) => {
        if (l.call.type === 'beginToolCall' && l.decision === 'allowed') begun.set(l.call.id!, l.call.tool!);
        if (l.call.type === 'endToolCall' && l.call.ok && l.decision === 'applied') return begun.get(l.call.id!);
        if (l.call.type === 'onToolSuccess') return l.call.tool;
        return undefined;
      });
      own.forEach((l, i) => {
        if (i > 0 && l.context.writeEpoch > own[i - 1]!.context.writeEpoch) landed += 1;
        if (l.decision !== 'blocked') return;
        blocked[l.reasonCode!] = (blocked[l.reasonCode!] ?? 0) + 1;
        blockedByState[l.before] = (blockedByState[l.before] ?? 0) + 1;
        const tool = l.call.tool;
        if (tool === undefined) return;
        blockedByTool[tool] = (blockedByTool[tool] ?? 0) + 1;
        blockedCalls += 1;
        if (successTool.slice(i + 1).includes(tool)) corrected += 1;
      });
    }
  }
  return { sessions: sessions.size, entries, blocked, blockedByTool, blockedByState, blockedCalls, corrected, landed };
}

describe('assistant-safety stats', () => {
  it('should print JSON that agrees with a count straight from the recording lines', async () => {
    const { code, out } = await run('stats', RECORDINGS, '--format', 'json');
    expect(code).toBe(0);
    const { files, ...json } = JSON.parse(out) as InsightsSummary & { files: string[] };
    expect(InsightsSummary.safeParse(json).success).toBe(true);
    const hand = countByHand(RECORDINGS);
    expect(json.sessions).toBe(hand.sessions);
    expect(json.entries).toBe(hand.entries);
    expect(json.blocked).toEqual(hand.blocked);
    expect(json.blockedByTool).toEqual(hand.blockedByTool);
    expect(json.blockedByState).toEqual(hand.blockedByState);
    expect(json.selfCorrection).toEqual({
      blocked: hand.blockedCalls,
      corrected: hand.corrected,
      rate: hand.corrected / hand.blockedCalls,
    });
    expect(json.writes.landed).toBe(hand.landed);
    expect(files).toHaveLength(
      readdirSync(RECORDINGS).filter((n) => n.endsWith('.jsonl') && !n.endsWith('.patrol.jsonl')).length,
    );
    // The loop's own blocks are counted with the gate's.
    expect(json.blocked.LOOK_BEFORE_ASKING).toBeGreaterThan(0);
    expect(json.blocked.LOOP_DETECTED).toBeGreaterThan(0);
  });

  it('should print the aggregates as a table from the command line', () => {
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'src', 'cli', 'bin.ts'), 'stats', 'recordings/'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    const hand = countByHand(RECORDINGS);
    expect(out).toMatch(new RegExp(`sessions\\s+${hand.sessions}\\n`));
    expect(out).toMatch(new RegExp(`entries\\s+${hand.entries}\\n`));
    for (const [code, n] of Object.entries(hand.blocked)) expect(out).toMatch(new RegExp(`${code}\\s+${n}\\n`));
    expect(out).toContain('self-correction');
    expect(out).toContain('time to verification: median');
  });

  it('should print Markdown tables with --format md', async () => {
    const { code, out } = await run('stats', join(RECORDINGS, 'retry-storm.jsonl'), '--format', 'md');
    expect(code).toBe(0);
    expect(out).toContain('### blocked by reason code');
    expect(out).toMatch(/\| UNVERIFIED_WRITE \| \d+ \|/);
  });

  it('should name the file and line of a bad line and exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'as-stats-'));
    const good = readFileSync(join(RECORDINGS, 'retry-storm.jsonl'), 'utf8').split('\n')[0];
    writeFileSync(join(dir, 'bad.jsonl'), `${good}\n{"v":1}\n`);
    const { code, err } = await run('stats', dir);
    expect(code).toBe(2);
    expect(err).toContain('bad.jsonl:2:');
  });

  it('should say in one line that a chat export is not a recording, and point to audit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'as-stats-'));
    const file = join(dir, 'export.jsonl');
    const row = {
      id: 'run-1',
      messages: [
        { role: 'user', content: 'restart vm 101' },
        { role: 'assistant', content: 'Done.' },
      ],
    };
    writeFileSync(file, `${JSON.stringify(row)}\n${JSON.stringify(row)}\n`);
    const { code, err } = await run('stats', file);
    expect(code).toBe(2);
    // Before: nine zod issues (v, session, seq, at, call, decision, before, after, context).
    expect(err).toBe(
      `stats: ${file}: not a recording: line 1 looks like an OpenAI chat export (agent conversations); assistant-safety audit ${file} reads those`,
    );
  });

  it('should count the lines before a torn last line and say so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'as-stats-'));
    const lines = readFileSync(join(RECORDINGS, 'retry-storm.jsonl'), 'utf8').split('\n').filter(Boolean);
    writeFileSync(join(dir, 'torn.jsonl'), `${lines.slice(0, 3).join('\n')}\n${lines[3]!.slice(0, 40)}`);
    const { code, out, err } = await run('stats', dir, '--format', 'json');
    expect(code).toBe(0);
    expect((JSON.parse(out) as InsightsSummary).entries).toBe(3);
    expect(err).toContain('torn.jsonl: line 4 is torn');
  });

  it('should say it left the Patrol run recordings out of a folder, and refuse one given by name', async () => {
    const folder = await run('stats', RECORDINGS, '--format', 'json');
    expect(folder.code).toBe(0);
    expect(folder.err).toContain('stats: left out 1 Patrol run recording (*.patrol.jsonl)');
    const one = await run('stats', join(RECORDINGS, 'patrol-demo.patrol.jsonl'));
    expect(one.code).toBe(2);
    // Before: a list of schema errors, as if it were a broken session recording.
    expect(one.err).toContain(
      "a Patrol run recording holds no session's tool calls (replay replays it on the Patrol machine)",
    );
  });

  it('should refuse an unknown format', async () => {
    const { code, err } = await run('stats', RECORDINGS, '--format', 'xml');
    expect(code).toBe(2);
    expect(err).toContain('--format');
  });
});
