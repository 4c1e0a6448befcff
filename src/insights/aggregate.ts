import { z } from 'zod';
import { RecordedBlockCode, SessionState, type RecordingEntry } from '../index.js';
import { createEntryInterpreter, type EntryFacts } from './interpretEntries.js';

/*
 * The aggregates of recordings that `assistant-safety stats` prints and the
 * app's Insights mode draws: how often the gate blocked and why, whether the
 * model corrected itself, and how long writes waited for verification. Each
 * aggregate keeps references to the entries behind it, so a chart can open the
 * session at the step.
 */

const count = z.number().int().nonnegative();

/** Summary statistics of durations in milliseconds. */
export const DurationStats = z.strictObject({
  count,
  min: z.number(),
  median: z.number(),
  p90: z.number(),
  max: z.number(),
  mean: z.number(),
});
export type DurationStats = z.infer<typeof DurationStats>;

/** What `stats --format json` prints. */
export const InsightsSummary = z.strictObject({
  /** Distinct sessions (per source file). */
  sessions: count,
  entries: count,
  /** Every blocked decision (tool calls, final answers, loop blocks) by reason code. */
  blocked: z.record(z.string(), count),
  /** Blocked tool calls by tool (final answers have no tool). */
  blockedByTool: z.record(z.string(), count),
  /** Blocked decisions by the state the session was in. */
  blockedByState: z.record(z.string(), count),
  /** Tool-call decisions: allowed and blocked (by the gate or the loop). */
  toolCalls: z.strictObject({ allowed: count, blocked: count }),
  /** Final answers refused, by state. */
  finalAnswerBlocks: z.record(z.string(), count),
  /** Blocked tool calls followed, in the same session, by a successful call of the same tool. */
  selfCorrection: z.strictObject({ blocked: count, corrected: count, rate: z.number().nullable() }),
  writes: z.strictObject({
    landed: count,
    verified: count,
    /** Landed and never verified (still waiting, written over, or reset). A write waiting at a restore counts as landed. */
    unverified: count,
    /** Write landed → verification evidence, in milliseconds of the sessions' clocks. */
    timeToVerifyMs: DurationStats.nullable(),
  }),
  /** Shadow mode: calls and final answers allowed that enforcement would have blocked, by reason code (absent when none). */
  wouldBlock: z.record(z.string(), count).optional(),
  /** Human evidence: attestations the machine took, by the reason code of the block they answered (absent when none). */
  attested: z.record(z.string(), count).optional(),
  /** Calls ended as unknown because their gateway's claim ran out, by the holder whose claim it was (absent when none). */
  orphaned: z.record(z.string(), count).optional(),
});
export type InsightsSummary = z.infer<typeof InsightsSummary>;

/** Where an entry is: its source (file name or `live`), session and position. */
export const EntryRef = z.strictObject({
  source: z.string(),
  session: z.string(),
  seq: count,
  at: z.number(),
});
export type EntryRef = z.infer<typeof EntryRef>;

/** A blocked decision. */
export const BlockRef = z.strictObject({
  ...EntryRef.shape,
  reasonCode: RecordedBlockCode,
  tool: z.string().nullable(),
  state: SessionState,
  /** Seq of the later successful call of the same tool that corrected it, if any. */
  correctedAt: count.optional(),
});
export type BlockRef = z.infer<typeof BlockRef>;

/** A landed write (`seq`, `at`: where it landed). */
export const WriteRef = z.strictObject({
  ...EntryRef.shape,
  tool: z.string().nullable(),
  /** Seq and duration of the verification, if it came. */
  verifiedSeq: count.optional(),
  ms: z.number().optional(),
});
export type WriteRef = z.infer<typeof WriteRef>;

/** The entries behind the aggregates. */
export const InsightsDetails = z.strictObject({ blocks: z.array(BlockRef), writes: z.array(WriteRef) });
export type InsightsDetails = z.infer<typeof InsightsDetails>;

/** What the server's live insights path answers: the aggregates of the hub's sessions and the steps behind them. */
export const LiveInsights = z.strictObject({ summary: InsightsSummary, details: InsightsDetails });
export type LiveInsights = z.infer<typeof LiveInsights>;

/** The server path of {@link LiveInsights} (behind the token, like every `/api/` path). */
export const LIVE_INSIGHTS_PATH = '/api/insights/live';

/** The source name of live sessions in {@link LiveInsights}' references. */
export const LIVE_SOURCE = 'live';

/** See {@link createInsights}. */
export interface Insights {
  /** Adds the next entry of `source` (a file name; sessions are told apart per source). */
  add(entry: RecordingEntry, source?: string): EntryFacts;
  summary(): InsightsSummary;
  /** The entries behind the aggregates (kept only with `details: true`). */
  details(): InsightsDetails;
}

export interface InsightsOptions {
  /** Keep a reference to every block and write for {@link Insights.details}. Default false. */
  details?: boolean;
}

/** A count kept as an own property: a tool named `constructor` or `__proto__` is a key like any other. */
const bump = (record: Record<string, number>, key: string, by = 1) => {
  const now = Object.hasOwn(record, key) ? record[key]! : 0;
  Object.defineProperty(record, key, { value: now + by, writable: true, enumerable: true, configurable: true });
};

function quantile(sorted: readonly number[], q: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

/**
 * Summary statistics of `values` (milliseconds), or null when there are none.
 *
 * @example
 * durationStats([1000, 3000, 2000])?.median; // 2000
 */
export function durationStats(values: readonly number[]): DurationStats | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    min: sorted[0]!,
    median: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
    max: sorted.at(-1)!,
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
  };
}

/**
 * Aggregates recording entries, as many files and sessions as given, one
 * entry at a time (so a huge recording streams through).
 *
 * @example
 * const insights = createInsights();
 * for (const entry of parseRecording(text)) insights.add(entry, 'demo.jsonl');
 * insights.summary().blocked; // { UNVERIFIED_WRITE: 3, LOOP_DETECTED: 1 }
 */
export function createInsights(options: InsightsOptions = {}): Insights {
  const keep = options.details ?? false;
  // Every session of every file stays tracked: a stats run must not forget a pending block or write.
  const interpreter = createEntryInterpreter({ maxSessions: Number.MAX_SAFE_INTEGER });
  const sessions = new Set<string>();
  let entries = 0;
  const blocked: Record<string, number> = {};
  const blockedByTool: Record<string, number> = {};
  const blockedByState: Record<string, number> = {};
  const finalAnswerBlocks: Record<string, number> = {};
  const toolCalls = { allowed: 0, blocked: 0 };
  let blockedCalls = 0;
  let corrected = 0;
  let landed = 0;
  const durations: number[] = [];
  const blocks: BlockRef[] = [];
  const wouldBlock: Record<string, number> = {};
  const attested: Record<string, number> = {};
  const orphaned: Record<string, number> = {};
  const writes: WriteRef[] = [];
  /** Per source and session: blocks waiting for a correction, and the write waiting for verification. */
  const openBlocks = new Map<string, BlockRef[]>();
  const openWrite = new Map<string, WriteRef>();

  function add(entry: RecordingEntry, source = ''): EntryFacts {
    const facts = interpreter.observe(entry, source);
    const key = `${source}\u0000${entry.session}`;
    sessions.add(key);
    entries += 1;
    const tool = facts.tool ?? null;
    if (entry.decision === 'blocked' && entry.reasonCode !== undefined) {
      bump(blocked, entry.reasonCode);
      bump(blockedByState, entry.before);
      if (tool !== null) {
        bump(blockedByTool, tool);
        blockedCalls += 1;
      }
      if (keep) {
        const ref: BlockRef = {
          source,
          session: entry.session,
          seq: entry.seq,
          at: entry.at,
          reasonCode: entry.reasonCode,
          tool,
          state: entry.before,
        };
        blocks.push(ref);
        if (tool !== null) {
          const list = openBlocks.get(key);
          if (list) list.push(ref);
          else openBlocks.set(key, [ref]);
        }
      }
    }
    if (entry.wouldBlock !== undefined) bump(wouldBlock, entry.wouldBlock);
    if (entry.call.type === 'attest' && entry.decision === 'applied') bump(attested, entry.call.reasonCode);
    if (facts.orphaned) bump(orphaned, facts.orphaned.by);
    if (facts.toolDecision?.decision === 'allowed') toolCalls.allowed += 1;
    if (facts.toolDecision?.decision === 'blocked' || facts.loopBlock) toolCalls.blocked += 1;
    if (facts.finalAnswer?.decision === 'blocked') bump(finalAnswerBlocks, entry.before);
    if (facts.corrected.length > 0) {
      corrected += facts.corrected.length;
      if (keep) {
        const list = openBlocks.get(key) ?? [];
        const fixed = new Set(facts.corrected.map((b) => b.seq));
        for (const ref of list) if (fixed.has(ref.seq)) ref.correctedAt = entry.seq;
        openBlocks.set(
          key,
          list.filter((ref) => ref.correctedAt === undefined),
        );
      }
    }
    const write = facts.landed ?? facts.inherited;
    if (write) {
      landed += 1;
      if (keep) {
        const ref: WriteRef = { source, session: entry.session, seq: write.seq, at: write.at, tool: write.tool };
        writes.push(ref);
        openWrite.set(key, ref);
      }
    }
    if (facts.verified) {
      durations.push(facts.verified.ms);
      const ref = openWrite.get(key);
      if (ref) {
        ref.verifiedSeq = entry.seq;
        ref.ms = facts.verified.ms;
        openWrite.delete(key);
      }
    }
    return facts;
  }

  return {
    add,
    summary: () => ({
      sessions: sessions.size,
      entries,
      blocked: { ...blocked },
      blockedByTool: { ...blockedByTool },
      blockedByState: { ...blockedByState },
      toolCalls: { ...toolCalls },
      finalAnswerBlocks: { ...finalAnswerBlocks },
      selfCorrection: {
        blocked: blockedCalls,
        corrected,
        rate: blockedCalls === 0 ? null : corrected / blockedCalls,
      },
      writes: {
        landed,
        verified: durations.length,
        unverified: landed - durations.length,
        timeToVerifyMs: durationStats(durations),
      },
      // Only when there is something to say, so a report without shadow runs or people reads as before.
      ...(Object.keys(wouldBlock).length > 0 && { wouldBlock: { ...wouldBlock } }),
      ...(Object.keys(attested).length > 0 && { attested: { ...attested } }),
      ...(Object.keys(orphaned).length > 0 && { orphaned: { ...orphaned } }),
    }),
    details: () => ({ blocks, writes }),
  };
}

/**
 * The aggregates of entries already in memory.
 *
 * @example
 * const summary = summariseEntries(parseRecording(text));
 */
export function summariseEntries(entries: Iterable<RecordingEntry>, source = ''): InsightsSummary {
  const insights = createInsights();
  for (const entry of entries) insights.add(entry, source);
  return insights.summary();
}
