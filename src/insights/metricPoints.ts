import type { EntryFacts } from './interpretEntries.js';

/*
 * The gate's metrics: names, instruments, units and attributes in
 * OpenTelemetry style, and the points one entry adds to them. The
 * OpenTelemetry recorder feeds these points to its instruments and the
 * `/metrics` endpoint to its Prometheus registry, so both expose the same
 * series (docs/observability.md lists them).
 */

/** The attribute keys the metrics use. */
export const ATTR = {
  decision: 'assistant_safety.decision',
  reasonCode: 'assistant_safety.reason_code',
  state: 'assistant_safety.state',
  toolKind: 'assistant_safety.tool.kind',
  toolName: 'assistant_safety.tool.name',
} as const;

export type MetricInstrument = 'counter' | 'updowncounter' | 'histogram';

/** One metric the gate exports. */
export interface MetricDescriptor {
  name: string;
  instrument: MetricInstrument;
  unit: string;
  description: string;
  /** The attribute keys its points carry (some only on some points, e.g. the reason code on a block). */
  attributes: readonly string[];
  /** Histogram bucket boundaries, in the metric's unit. */
  buckets?: readonly number[];
}

/** Time to verification buckets, in seconds: a second to an hour. */
export const VERIFICATION_BUCKETS_S: readonly number[] = [0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];

/** Every metric, by a short key. */
export const METRICS = {
  decisions: {
    name: 'assistant_safety.decisions',
    instrument: 'counter',
    unit: '{decision}',
    description: "The gate's decisions on tool calls (canExecuteTool, beginToolCall).",
    attributes: [ATTR.decision, ATTR.reasonCode, ATTR.state, ATTR.toolKind, ATTR.toolName],
  },
  finalAnswerBlocks: {
    name: 'assistant_safety.final_answer.blocks',
    instrument: 'counter',
    unit: '{block}',
    description: 'Final answers refused (canFinalAnswer), by the state the session was in.',
    attributes: [ATTR.state, ATTR.reasonCode],
  },
  loopBlocks: {
    name: 'assistant_safety.loop.blocks',
    instrument: 'counter',
    unit: '{block}',
    description: 'Calls the tool loop refused before the gate saw them (LOOK_BEFORE_ASKING, LOOP_DETECTED).',
    attributes: [ATTR.reasonCode, ATTR.state, ATTR.toolKind, ATTR.toolName],
  },
  recoveryAttempts: {
    name: 'assistant_safety.recovery.attempts',
    instrument: 'counter',
    unit: '{attempt}',
    description: 'Blocked tool calls (gate or loop): each is a chance for the model to correct itself.',
    attributes: [ATTR.reasonCode, ATTR.toolName],
  },
  recoverySuccesses: {
    name: 'assistant_safety.recovery.successes',
    instrument: 'counter',
    unit: '{success}',
    description: 'Blocked tool calls followed, in the same session, by a successful call of the same tool.',
    attributes: [ATTR.reasonCode, ATTR.toolName],
  },
  writes: {
    name: 'assistant_safety.writes',
    instrument: 'counter',
    unit: '{write}',
    description: 'Writes that landed (a new write epoch).',
    attributes: [ATTR.toolName],
  },
  unverifiedWrites: {
    name: 'assistant_safety.writes.unverified',
    instrument: 'updowncounter',
    unit: '{write}',
    description: 'Landed writes waiting for verification evidence now.',
    attributes: [],
  },
  orphanedCalls: {
    name: 'assistant_safety.calls.orphaned',
    instrument: 'counter',
    unit: '{call}',
    description: 'Calls ended as unknown outcomes because the claim of the gateway running them ran out (orphanedBy).',
    attributes: [ATTR.toolName],
  },
  verificationDuration: {
    name: 'assistant_safety.verification.duration',
    instrument: 'histogram',
    unit: 's',
    description: "From a write landing to the evidence that verifies it (the session's clock).",
    attributes: [ATTR.toolName],
    buckets: VERIFICATION_BUCKETS_S,
  },
} as const satisfies Record<string, MetricDescriptor>;

export type MetricKey = keyof typeof METRICS;

/** One measurement: add `value` to a counter, or record it in a histogram. */
export interface MetricPoint {
  metric: MetricKey;
  value: number;
  attributes: Record<string, string>;
}

/** Maps a tool name to the attribute value metrics carry (see {@link createToolNamer}). */
export type ToolNamer = (tool: string) => string;

/** The attribute value of a tool outside the allow-list. */
export const OTHER_TOOL = 'other';

/** The longest tool name a count-bounded namer keeps: a label value that long breaks scrapes with a length limit. */
const MAX_TOOL_NAME_LENGTH = 128;

/**
 * Bounds the tool-name attribute's cardinality: names in `allow` are kept, every
 * other becomes `other`. With a number instead, the first `max` distinct names
 * seen are kept (default 50), but for names over 128 characters, which become `other`
 * without taking a place.
 *
 * @example
 * const name = createToolNamer(['pulse_query', 'pulse_control']);
 * name('pulse_query'); // 'pulse_query'
 * name('custom_tool'); // 'other'
 */
export function createToolNamer(allow: readonly string[] | number = 50): ToolNamer {
  if (typeof allow !== 'number') {
    const set = new Set(allow);
    return (tool) => (set.has(tool) ? tool : OTHER_TOOL);
  }
  const seen = new Set<string>();
  return (tool) => {
    if (seen.has(tool)) return tool;
    if (seen.size >= allow || tool.length > MAX_TOOL_NAME_LENGTH) return OTHER_TOOL;
    seen.add(tool);
    return tool;
  };
}

/**
 * The metric points one entry adds.
 *
 * @example
 * const points = metricPointsOf(interpreter.observe(entry), createToolNamer());
 */
export function metricPointsOf(facts: EntryFacts, toolName: ToolNamer): MetricPoint[] {
  const points: MetricPoint[] = [];
  const { entry } = facts;
  const tool = facts.tool !== undefined ? toolName(facts.tool) : undefined;
  if (facts.toolDecision) {
    // Shadow mode: an allowed call that enforcement would have blocked counts as `would_block`.
    const shadow = entry.wouldBlock;
    const reasonCode = shadow ?? facts.toolDecision.reasonCode;
    points.push({
      metric: 'decisions',
      value: 1,
      attributes: {
        [ATTR.decision]: shadow !== undefined ? 'would_block' : facts.toolDecision.decision,
        ...(reasonCode !== undefined && { [ATTR.reasonCode]: reasonCode }),
        [ATTR.state]: entry.before,
        [ATTR.toolKind]: facts.kind!,
        [ATTR.toolName]: tool!,
      },
    });
  }
  if (entry.call.type === 'attest' && entry.decision === 'applied') {
    // Human evidence, counted apart from the machine's own decisions on calls.
    points.push({
      metric: 'decisions',
      value: 1,
      attributes: { [ATTR.decision]: 'attested', [ATTR.reasonCode]: entry.call.reasonCode, [ATTR.state]: entry.before },
    });
  }
  if (facts.finalAnswer?.decision === 'blocked') {
    points.push({
      metric: 'finalAnswerBlocks',
      value: 1,
      attributes: {
        [ATTR.state]: entry.before,
        ...(facts.finalAnswer.reasonCode !== undefined && { [ATTR.reasonCode]: facts.finalAnswer.reasonCode }),
      },
    });
  }
  if (facts.loopBlock) {
    points.push({
      metric: 'loopBlocks',
      value: 1,
      attributes: {
        [ATTR.reasonCode]: facts.loopBlock.reasonCode,
        [ATTR.state]: entry.before,
        [ATTR.toolKind]: facts.kind!,
        [ATTR.toolName]: tool!,
      },
    });
  }
  if (entry.decision === 'blocked' && tool !== undefined && entry.reasonCode !== undefined) {
    points.push({
      metric: 'recoveryAttempts',
      value: 1,
      attributes: { [ATTR.reasonCode]: entry.reasonCode, [ATTR.toolName]: tool },
    });
  }
  if (facts.corrected.length > 0) {
    const byCode = new Map<string, number>();
    for (const block of facts.corrected) byCode.set(block.reasonCode, (byCode.get(block.reasonCode) ?? 0) + 1);
    for (const [code, n] of byCode) {
      points.push({
        metric: 'recoverySuccesses',
        value: n,
        attributes: { [ATTR.reasonCode]: code, [ATTR.toolName]: tool! },
      });
    }
  }
  if (facts.orphaned) {
    points.push({ metric: 'orphanedCalls', value: 1, attributes: tool !== undefined ? { [ATTR.toolName]: tool } : {} });
  }
  if (facts.abandoned) points.push({ metric: 'unverifiedWrites', value: -1, attributes: {} });
  // A write another process saw land: waiting now, but not counted as landed again.
  if (facts.inherited) points.push({ metric: 'unverifiedWrites', value: 1, attributes: {} });
  if (facts.landed) {
    const landedTool = facts.landed.tool === null ? OTHER_TOOL : toolName(facts.landed.tool);
    points.push({ metric: 'writes', value: 1, attributes: { [ATTR.toolName]: landedTool } });
    points.push({ metric: 'unverifiedWrites', value: 1, attributes: {} });
  }
  if (facts.verified) {
    const verifiedTool = facts.verified.write.tool === null ? OTHER_TOOL : toolName(facts.verified.write.tool);
    points.push({ metric: 'unverifiedWrites', value: -1, attributes: {} });
    points.push({
      metric: 'verificationDuration',
      value: facts.verified.ms / 1000,
      attributes: { [ATTR.toolName]: verifiedTool },
    });
  }
  return points;
}
