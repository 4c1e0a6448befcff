/*
 * The vocabulary of a Patrol run (src/patrol/runPatrol.ts runs it): its options, the tools and model
 * passes it is given, and what it returns.
 */
import type { SafetySession, SafetySessionOptions, ToolKind } from '../index.js';
import { keysOf } from '../core/knownKeys.js';
import type { Finding, FindingReport } from './Finding.js';
import type { FindingStore } from './findingStore.js';
import type { GuestIntel, TriageFlag } from './floorSignals.js';
import type { PassRequest } from './passes.js';
import type { PatrolMachine } from './createPatrolMachine.js';
import type { PatrolEvent, PatrolProjection } from './patrolMachineKind.js';
import type { PatrolRunRecord, RunType } from './PatrolRunRecord.js';
import type { Detector, SignalThresholds } from './Signal.js';

/** An inventory tool the model passes may call: its kind (the safety gate needs it) and what it does. */
export interface PatrolInventoryTool {
  kind: ToolKind;
  /** Returns the tool's raw output (what the detectors read). Throwing makes the call a failed one. */
  run(input: unknown): Promise<string> | string;
}

/** What a tool call gives back to the model pass: output, or an error with a stable code. */
export type PatrolToolResult<T = string> =
  { ok: true; value: T } | { ok: false; error: { code: string; message: string } };

/** A finding report's answer. `applied: false` with a `reason` when it changed nothing. */
export interface ReportAnswer {
  findingId: string;
  isNew: boolean;
  applied: boolean;
  reason?: string;
}

/** A verdict on an active finding. */
export interface Assessment {
  findingId: string;
  verdict: 'present' | 'resolved' | 'uncertain';
  evidence: string;
  reason: string;
}

/** The tools a model pass is given; every call goes through the pass's safety session. */
export interface PatrolTools {
  /** Calls an inventory tool (allowed ones only). */
  call(tool: string, input?: unknown): Promise<PatrolToolResult>;
  /** The active findings in scope (`patrol_get_findings`, a read). */
  getFindings(): Promise<PatrolToolResult<Finding[]>>;
  /** Files or re-confirms a finding (`patrol_report_finding`, a state-only write). */
  reportFinding(report: FindingReport): Promise<PatrolToolResult<ReportAnswer>>;
  /** Gives a verdict on an active finding (`patrol_assess_finding`, a state-only write). */
  assessFinding(assessment: Assessment): Promise<PatrolToolResult<{ applied: boolean; reason?: string }>>;
}

/**
 * A model pass: your agent. It is given the request (which pass, its tools and
 * budgets, the signals or findings to look at), the tools, and a fresh safety
 * session under the request's profile (the tools already use it; pass it on if
 * your agent gates other calls). Throwing fails the pass's phase.
 */
export type ModelPass = (request: PatrolPassInput) => Promise<void>;

/** What a model pass receives. */
export interface PatrolPassInput {
  request: PassRequest;
  tools: PatrolTools;
  session: SafetySession;
  /** The active findings the run re-checks (the main pass must give each a verdict). */
  seeded: Finding[];
}

/** One step of a run, as recordings keep it: the event sent and the projection after it. */
export interface PatrolStep {
  event: PatrolEvent;
  after: PatrolProjection;
}

export interface RunPatrolOptions {
  /** `full` (default) or `scoped` (with `scope`). */
  runType?: RunType;
  /** Why the run started: `scheduled` (default), `manual`, `alert_fired`, ... */
  trigger?: string;
  /** A scoped run's resources (ids) and their types (to choose the main pass's tools). */
  scope?: { resourceIds: string[]; resourceTypes?: string[] };
  depth?: 'normal' | 'quick';
  /** Clock, epoch ms (default `Date.now`). */
  now?: () => number;
  /** The findings before the run (default: none). */
  store?: FindingStore;
  /** Autonomy level for investigations: `monitor` (default: none start), `approval`, `assisted`, `full`. */
  autonomy?: string;
  /** Signal thresholds (default: from the default analysis thresholds). */
  thresholds?: SignalThresholds;
  /** Detectors (default: the Pulse preset). */
  detectors?: readonly Detector[];
  /** The inventory tools, by name. */
  tools: Readonly<Record<string, PatrolInventoryTool>>;
  /** Returns why the run may not go ahead, or nothing. Throwing counts as closed. */
  gates?: () => Promise<string | undefined> | string | undefined;
  /** Deterministic triage: flags (some become floor signals) and guest reachability. */
  triage?: () =>
    | Promise<{ flags: TriageFlag[]; guestIntel?: Record<string, GuestIntel> }>
    | { flags: TriageFlag[]; guestIntel?: Record<string, GuestIntel> };
  /** The model passes; evaluation and assessment default to the main one. */
  passes: { main: ModelPass; evaluation?: ModelPass; assessment?: ModelPass };
  /** Re-checks a finding deterministically (stale reconcile, resolve verdicts): true when the issue cleared. */
  verifier?: (finding: Finding) => Promise<boolean> | boolean;
  /** Starts an investigation (not awaited by the run) under a fresh `investigation` session. */
  investigate?: (finding: Finding, session: SafetySession) => Promise<void> | void;
  /** Saves the record. It runs before any investigation starts; if it throws, none does and the run rejects. */
  onRecord?: (record: PatrolRunRecord) => Promise<void> | void;
  /** Sees every step of the machine (for recordings). */
  onStep?: (step: PatrolStep) => void;
  /** Options for every pass's safety session (a recorder, say); the profile is the run's. */
  sessionOptions?: Omit<SafetySessionOptions, 'profile'>;
  /** The run machine (default: the shipped one). */
  machine?: PatrolMachine;
  /** The record's id (default: the start time). */
  runId?: string;
}

export interface PatrolRunResult {
  record: PatrolRunRecord;
  store: FindingStore;
  steps: PatrolStep[];
  /** Findings an investigation was started for. */
  dispatched: string[];
  /** Settles when every started investigation has. */
  investigations: Promise<void>;
  /** The requests each model pass was given, in order. */
  requests: PassRequest[];
}

/** The options `runPatrol` takes: any other is refused (a misspelling is never a silent default). */
export const RUN_PATROL_OPTION_KEYS = keysOf<RunPatrolOptions>({
  runType: true,
  trigger: true,
  scope: true,
  depth: true,
  now: true,
  store: true,
  autonomy: true,
  thresholds: true,
  detectors: true,
  tools: true,
  gates: true,
  triage: true,
  passes: true,
  verifier: true,
  investigate: true,
  onRecord: true,
  onStep: true,
  sessionOptions: true,
  machine: true,
  runId: true,
});
