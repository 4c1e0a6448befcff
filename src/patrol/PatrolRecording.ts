import { z } from 'zod';
import { FindingCategory } from './Finding.js';
import type { FindingStore } from './findingStore.js';
import { PatrolRunRecord } from './PatrolRunRecord.js';
import { PatrolEvent, PatrolProjection } from './patrolMachineKind.js';
import type { PatrolStep } from './runPatrolTypes.js';
import { Severity, Signal } from './Signal.js';

/*
 * A recorded Patrol run as JSON Lines: a header line, one line per machine
 * step (the event, the projection after it, and what the step was about:
 * the pass it ran in, the signals detection found, the finding it filed or
 * dispatched), and the run record last. Replaying the steps on a Patrol
 * machine (`replayPatrolSteps`) tells whether that machine takes the run the
 * same way.
 */

/** The recording format's version. */
export const PATROL_RECORDING_VERSION = 1;

/** A finding as a recording shows it: enough to name it in a timeline. */
export const RecordedFinding = z.object({
  id: z.string(),
  title: z.string(),
  severity: Severity,
  category: FindingCategory,
  resourceId: z.string(),
});
export type RecordedFinding = z.infer<typeof RecordedFinding>;

/** One line of a Patrol recording. */
export const PatrolRecordingLine = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('patrol-run'),
    version: z.literal(PATROL_RECORDING_VERSION),
    /** The machine file the run was made on (`patrol.json`). */
    machine: z.string(),
    runId: z.string(),
  }),
  z.object({
    kind: z.literal('patrol-step'),
    index: z.number().int().nonnegative(),
    event: PatrolEvent,
    after: PatrolProjection,
    /** The model pass the step happened in, if any. */
    pass: z.optional(z.enum(['main', 'evaluation', 'assessment'])),
    /** What detection found (on `SIGNALS_DETECTED`). */
    signals: z.optional(z.array(Signal)),
    /** The signals no finding matched (on `SIGNALS_DETECTED`). */
    unmatched: z.optional(z.array(Signal)),
    /** The finding the step filed or dispatched. */
    finding: z.optional(RecordedFinding),
  }),
  z.object({ kind: z.literal('patrol-record'), record: PatrolRunRecord }),
]);
export type PatrolRecordingLine = z.infer<typeof PatrolRecordingLine>;

type Header = Extract<PatrolRecordingLine, { kind: 'patrol-run' }>;
/** One recorded step: a machine step with what it was about. */
export type PatrolRecordedStep = Extract<PatrolRecordingLine, { kind: 'patrol-step' }>;

/** A whole Patrol recording, read back. */
export interface PatrolRecording {
  machine: string;
  runId: string;
  steps: PatrolRecordedStep[];
  record: PatrolRunRecord;
}

const PASS_OF: Record<string, 'main' | 'evaluation' | 'assessment'> = {
  mainPass: 'main',
  evaluationPass: 'evaluation',
  assessmentSweep: 'assessment',
};

/**
 * Writes a run (what `runPatrol` returned) as a Patrol recording's text,
 * one JSON line each: header, steps, record.
 *
 * @example
 * const result = await runPatrol(options);
 * writeFileSync('recordings/patrol-demo.jsonl', patrolRecordingText(result));
 */
export function patrolRecordingText(
  run: { record: PatrolRunRecord; steps: readonly PatrolStep[]; store: FindingStore },
  machine = 'patrol.json',
): string {
  const header: Header = { kind: 'patrol-run', version: PATROL_RECORDING_VERSION, machine, runId: run.record.id };
  const lines: PatrolRecordingLine[] = [header];
  let state = 'idle';
  run.steps.forEach((step, index) => {
    const pass = PASS_OF[state];
    const findingId = 'findingId' in step.event ? step.event.findingId : undefined;
    const f = findingId === undefined ? undefined : run.store.findings[findingId];
    lines.push({
      kind: 'patrol-step',
      index,
      event: step.event,
      after: step.after,
      ...(pass && { pass }),
      ...(step.event.type === 'SIGNALS_DETECTED' && {
        signals: run.record.signals,
        unmatched: run.record.unmatchedBeforeEvaluation,
      }),
      ...(f && {
        finding: {
          id: f.id,
          title: f.title,
          severity: f.severity,
          category: f.category,
          resourceId: f.resourceId,
        },
      }),
    });
    state = step.after.state;
  });
  lines.push({ kind: 'patrol-record', record: run.record });
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

/**
 * Whether a recording's text is a Patrol recording (its first line is a
 * Patrol header), not a safety session's.
 *
 * @example
 * isPatrolRecordingText(readFileSync('recordings/patrol-demo.patrol.jsonl', 'utf8')); // true
 */
export function isPatrolRecordingText(text: string): boolean {
  return /^\s*\{\s*"kind"\s*:\s*"patrol-run"/.test(text);
}

/**
 * Reads a Patrol recording's text back: every line checked against its
 * schema, the steps in order, exactly one header first and one record last.
 * Errors are data naming the line, the field and what was found.
 *
 * @example
 * const read = parsePatrolRecording('patrol-demo.jsonl', text);
 * if (read.ok) replayPatrolSteps(read.recording.steps);
 */
export function parsePatrolRecording(
  name: string,
  text: string,
): { ok: true; recording: PatrolRecording } | { ok: false; message: string; line: number } {
  const rows = text.split('\n');
  let header: Header | undefined;
  let record: PatrolRunRecord | undefined;
  const steps: PatrolRecordedStep[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!.trim();
    if (row === '') continue;
    const line = i + 1;
    const fail = (message: string) => ({ ok: false as const, line, message: `${name}, line ${line}: ${message}` });
    let json: unknown;
    try {
      json = JSON.parse(row);
    } catch (e) {
      return fail(`not JSON (${(e as Error).message})`);
    }
    const parsed = PatrolRecordingLine.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return fail(`${issue.path.join('.') || '(line)'}: ${issue.message}`);
    }
    const value = parsed.data;
    if (record) return fail('a line after the run record');
    if (value.kind === 'patrol-run') {
      if (header) return fail('a second header');
      header = value;
    } else if (!header) return fail('the first line must be the "patrol-run" header');
    else if (value.kind === 'patrol-step') {
      if (value.index !== steps.length) return fail(`step index ${value.index}, expected ${steps.length}`);
      steps.push(value);
    } else {
      if (value.record.id !== header.runId)
        return fail(
          `record.id: ${JSON.stringify(value.record.id)}, but the header's runId is ${JSON.stringify(header.runId)}`,
        );
      record = value.record;
    }
  }
  if (!header) return { ok: false, line: 1, message: `${name}: empty, no "patrol-run" header` };
  if (!record) return { ok: false, line: rows.length, message: `${name}: no "patrol-record" line at the end` };
  return { ok: true, recording: { machine: header.machine, runId: header.runId, steps, record } };
}
