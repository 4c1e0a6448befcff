import { createKindSession, createSafetySession, finishToolCall, type SafetySession } from '../index.js';
import type { ToolKind } from '../index.js';
import { detectSignals } from './detectSignals.js';
import { FindingReport, isActiveFinding, type Finding } from './Finding.js';
import { EMPTY_FINDING_STORE, reduceFindings } from './findingStore.js';
import {
  decisionFloorFlags,
  reachabilitySignals,
  triageFlagsToSignals,
  type GuestIntel,
  type TriageFlag,
} from './floorSignals.js';
import {
  assessmentSweepRequest,
  evaluationPassRequest,
  mainPassRequest,
  missingAssessments,
  PATROL_TOOLS,
  type PassName,
  type PassRequest,
} from './passes.js';
import { patrolMachine } from './patrolMachine.js';
import { patrolMachineKind, projectPatrolSnapshot, type PatrolContext } from './patrolMachineKind.js';
import type { PatrolEvent } from './patrolMachineKind.js';
import { patrolThresholdsFromAlerts, signalThresholdsFromPatrol } from './patrolThresholds.js';
import { RECORD_TOOL_CALLS_MAX, recordedToolCall, runStatus, type PatrolRunRecord } from './PatrolRunRecord.js';
import { shouldInvestigate } from './shouldInvestigate.js';
import type { Signal, ToolCallRecord } from './Signal.js';
import { STALE_REASONS, staleFindingPlan } from './staleFindings.js';
import { unmatchedSignals } from './unmatchedSignals.js';
import { refuseUnknownOptions } from '../core/knownKeys.js';
import {
  RUN_PATROL_OPTION_KEYS,
  type ModelPass,
  type PatrolRunResult,
  type PatrolStep,
  type PatrolToolResult,
  type PatrolTools,
  type ReportAnswer,
  type Assessment,
  type RunPatrolOptions,
} from './runPatrolTypes.js';

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));
const fail = (code: string, message: string) => ({ ok: false as const, error: { code, message } });

/**
 * Runs one Patrol run: drives the run machine and, in each of its states, does
 * that phase's work: gates, triage, the main model pass, signal detection over
 * the main pass's raw tool outputs, the evaluation pass for unmatched signals
 * (its reports refused once their number is reached), the assessment sweep
 * for findings left without a verdict, stale reconcile (full runs only),
 * exactly one record, then investigations of the findings reported this run
 * that {@link shouldInvestigate} allows. A failing phase sends the run to its
 * record. Each model pass gets a fresh safety session under the `detection`
 * profile; each investigation one under `investigation`.
 *
 * @example
 * const { record } = await runPatrol({
 *   tools: { pulse_storage: { kind: 'read', run: () => JSON.stringify({ pools: [] }) } },
 *   passes: { main: async ({ tools }) => void (await tools.call('pulse_storage', { type: 'pools' })) },
 * });
 * record.status; // 'healthy'
 */
export async function runPatrol(options: RunPatrolOptions): Promise<PatrolRunResult> {
  refuseUnknownOptions('runPatrol', options, RUN_PATROL_OPTION_KEYS);
  const now = options.now ?? Date.now;
  const startedAt = now();
  const runType = options.runType ?? 'full';
  const trigger = options.trigger ?? 'scheduled';
  const scope = options.scope ? new Set(options.scope.resourceIds) : undefined;
  const thresholds = options.thresholds ?? signalThresholdsFromPatrol(patrolThresholdsFromAlerts(undefined));
  const autonomy = options.autonomy ?? 'monitor';
  const inScope = (f: Pick<Finding, 'resourceId'>) =>
    scope === undefined || runType === 'full' || scope.has(f.resourceId);

  let store = options.store ?? EMPTY_FINDING_STORE;
  const steps: PatrolStep[] = [];
  const requests: PassRequest[] = [];
  // The run's machine as a kind session: its events checked against the kind, run on the compiled table.
  const run = createKindSession<PatrolContext, PatrolEvent>(patrolMachineKind, options.machine ?? patrolMachine);
  const send = (event: PatrolEvent) => {
    run.send(event);
    const step = { event, after: projectPatrolSnapshot({ value: run.state, context: run.context }) };
    steps.push(step);
    options.onStep?.(step);
  };
  const state = () => run.state;
  const context = () => run.context;

  // What the run learns as it goes.
  let flags: TriageFlag[] = [];
  let guestIntel: Record<string, GuestIntel> | undefined;
  let seeded: Finding[] = [];
  const mainCalls: ToolCallRecord[] = [];
  const allCalls: ToolCallRecord[] = [];
  const collected: Finding[] = []; // reported or re-confirmed this run
  const reported: string[] = []; // ids reported this run, in order
  const created = new Set<string>();
  const assessed = new Set<string>();
  const queried = new Set<string>();
  const resolvedIds = new Set<string>();
  let signals: Signal[] = [];
  let unmatchedBefore: Signal[] = [];
  let unmatchedAfter: Signal[] = [];
  let pending: string[] = [];
  let staleResolved = 0;
  let counter = 0;

  const apply = (action: Parameters<typeof reduceFindings>[1]) => {
    const result = reduceFindings(store, action);
    store = result.store;
    return result;
  };

  /** One gated call through the pass's session: begin, do, end. */
  async function gated<T>(
    session: SafetySession,
    pass: PassName,
    call: { tool: string; kind: ToolKind; stateOnly?: boolean; input: unknown },
    work: () => Promise<PatrolToolResult<T>> | PatrolToolResult<T>,
    output: (value: T) => string,
  ): Promise<PatrolToolResult<T>> {
    const id = `${pass === 'main' ? '' : `${pass}/`}call-${++counter}`;
    const block = session.beginToolCall({
      id,
      kind: call.kind,
      tool: call.tool,
      ...(call.stateOnly && { stateOnly: true }),
    });
    if (block) {
      const json = block.toJSON();
      allCalls.push({ id, tool: call.tool, input: call.input, output: json.message, success: false });
      return fail(json.error, json.message);
    }
    let result: PatrolToolResult<T>;
    try {
      result = await work();
    } catch (e) {
      result = fail('tool_error', errorText(e));
    }
    // As the tool loop does: a read that verifies the last write completes it, so a pass may write again.
    finishToolCall(session, { id, ok: result.ok });
    const record = {
      id,
      tool: call.tool,
      input: call.input,
      output: result.ok ? output(result.value) : result.error.message,
      success: result.ok,
    };
    allCalls.push(record);
    if (pass === 'main') mainCalls.push(record);
    return result;
  }

  function toolsFor(request: PassRequest, session: SafetySession): PatrolTools {
    const allowed = (tool: string) => request.allowedTools === null || request.allowedTools.includes(tool);
    const notAdvertised = (tool: string) =>
      Promise.resolve(fail('TOOL_NOT_ADVERTISED', `tool '${tool}' is not available in the ${request.pass} pass`));
    return {
      call: (tool, input) => {
        const impl = Object.hasOwn(options.tools, tool) ? options.tools[tool] : undefined;
        if (!impl || !allowed(tool)) return notAdvertised(tool);
        return gated(
          session,
          request.pass,
          { tool, kind: impl.kind, input },
          async () => ({ ok: true, value: await impl.run(input) }),
          (v) => v,
        );
      },
      getFindings: () => {
        if (!allowed(PATROL_TOOLS.getFindings)) return notAdvertised(PATROL_TOOLS.getFindings);
        return gated(
          session,
          request.pass,
          { tool: PATROL_TOOLS.getFindings, kind: 'read', input: {} },
          () => {
            const active = Object.values(store.findings).filter((f) => isActiveFinding(f, now()) && inScope(f));
            for (const f of active) queried.add(f.id);
            return { ok: true, value: active };
          },
          (v) => JSON.stringify(v.map((f) => f.id)),
        );
      },
      reportFinding: (input) => {
        if (!allowed(PATROL_TOOLS.reportFinding)) return notAdvertised(PATROL_TOOLS.reportFinding);
        return gated(
          session,
          request.pass,
          { tool: PATROL_TOOLS.reportFinding, kind: 'write', stateOnly: true, input },
          () => report(request.pass, input),
          (v) => JSON.stringify(v),
        );
      },
      assessFinding: (input) => {
        if (!allowed(PATROL_TOOLS.assessFinding)) return notAdvertised(PATROL_TOOLS.assessFinding);
        return gated(
          session,
          request.pass,
          { tool: PATROL_TOOLS.assessFinding, kind: 'write', stateOnly: true, input },
          () => assess(input),
          (v) => JSON.stringify(v),
        );
      },
    };
  }

  function report(pass: PassName, input: FindingReport): PatrolToolResult<ReportAnswer> {
    const parsed = FindingReport.safeParse(input);
    if (!parsed.success)
      return fail('invalid_report', parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    const r = parsed.data;
    if (r.severity !== 'warning' && r.severity !== 'critical')
      return fail('invalid_report', `invalid severity "${r.severity}": only warning or critical`);
    if (!inScope(r)) return fail('out_of_scope', `resource "${r.resourceId}" is not in this run's scope`);
    // What the id will be, to tell a repeat of this run's own report apart.
    const probe = reduceFindings(store, { type: 'add', report: r, now: now() });
    if (probe.id !== undefined && created.has(probe.id))
      return {
        ok: true,
        value: { findingId: probe.id, isNew: true, applied: false, reason: 'finding_reported_this_run' },
      };
    const before = context().evaluationReports;
    send({ type: 'REPORT_REQUESTED', ...(probe.id !== undefined && { findingId: probe.id }) });
    if (pass === 'evaluation' && context().evaluationReports === before)
      return fail(
        'PATROL_FINDING_REPORT_BUDGET_EXHAUSTED',
        'the evaluation pass has filed as many reports as there were unmatched signals',
      );
    const result = apply({ type: 'add', report: r, now: now() });
    const id = result.id!;
    if (result.isNew) created.add(id);
    const stored = store.findings[id];
    if (stored && result.applied) {
      collected.push(stored);
      if (!reported.includes(id)) reported.push(id);
    }
    return {
      ok: true,
      value: {
        findingId: id,
        isNew: result.isNew === true,
        applied: result.applied,
        ...(!result.applied && { reason: result.outcome }),
      },
    };
  }

  async function assess(a: Assessment): Promise<PatrolToolResult<{ applied: boolean; reason?: string }>> {
    const f = store.findings[a.findingId];
    if (!f || !isActiveFinding(f, now()) || !inScope(f)) {
      const active = Object.values(store.findings)
        .filter((x) => isActiveFinding(x, now()) && inScope(x))
        .slice(0, 20)
        .map((x) => x.id);
      return fail(
        'finding_not_found',
        `no active finding "${a.findingId}" in scope (active: ${active.join(', ') || 'none'})`,
      );
    }
    if (created.has(f.id)) return { ok: true, value: { applied: false, reason: 'new_finding_reported_this_run' } };
    if (assessed.has(f.id)) return fail('already_assessed', `finding "${f.id}" already has a verdict in this run`);
    if (a.verdict === 'resolved' && f.category !== 'performance' && f.category !== 'capacity' && options.verifier) {
      let cleared: boolean;
      try {
        cleared = await options.verifier(f);
      } catch {
        return fail('verification_inconclusive', 'deterministic verification was inconclusive');
      }
      if (!cleared) return fail('still_failing', 'the failure signal is still present');
    }
    assessed.add(f.id);
    if (a.verdict === 'present') {
      const { id: _id, ...content } = f;
      apply({ type: 'add', report: { ...content, evidence: a.evidence }, now: now() });
      collected.push(store.findings[f.id]!);
    } else if (a.verdict === 'resolved') {
      apply({ type: 'resolve', id: f.id, auto: true, reason: a.reason, now: now() });
      resolvedIds.add(f.id);
    }
    return { ok: true, value: { applied: a.verdict !== 'uncertain' } };
  }

  async function runPass(pass: ModelPass, request: PassRequest) {
    requests.push(request);
    const session = createSafetySession({ ...options.sessionOptions, profile: request.profile });
    await pass({ request, tools: toolsFor(request, session), session, seeded });
  }

  /** Runs a phase's work; an exception fails the phase. */
  async function phase(work: () => Promise<PatrolEvent>) {
    let event: PatrolEvent;
    try {
      event = await work();
    } catch (e) {
      event = { type: 'PHASE_FAILED', message: errorText(e) };
    }
    send(event);
  }

  send({ type: 'START', runType, trigger });
  let dispatched: string[] = [];
  let investigations: Promise<void> = Promise.resolve();
  let record: PatrolRunRecord | undefined;

  while (state() !== 'done') {
    const at = state();
    switch (at) {
      case 'gating':
        await phase(async () => {
          const reason = await options.gates?.();
          return reason ? { type: 'PHASE_FAILED', message: reason } : { type: 'GATES_PASSED' };
        });
        break;
      case 'triage':
        await phase(async () => {
          const t = (await options.triage?.()) ?? { flags: [] };
          flags = t.flags;
          guestIntel = t.guestIntel;
          seeded = Object.values(store.findings).filter((f) => isActiveFinding(f, now()) && inScope(f));
          return { type: 'TRIAGED', flags: flags.length };
        });
        break;
      case 'mainPass':
        await phase(async () => {
          await runPass(
            options.passes.main,
            mainPassRequest({
              flagCount: flags.length,
              ...(options.depth && { depth: options.depth }),
              ...(runType === 'scoped' &&
                options.scope?.resourceTypes && { scopeResourceTypes: options.scope.resourceTypes }),
            }),
          );
          return { type: 'PASS_DONE' };
        });
        break;
      case 'detecting':
        await phase(async () => {
          signals = [
            ...detectSignals(mainCalls, thresholds, now(), options.detectors),
            ...triageFlagsToSignals(decisionFloorFlags(flags)),
            ...reachabilitySignals(guestIntel),
          ];
          unmatchedBefore = unmatchedSignals(signals, collected);
          unmatchedAfter = unmatchedBefore;
          return { type: 'SIGNALS_DETECTED', signals: signals.length, unmatched: unmatchedBefore.length };
        });
        break;
      case 'evaluationPass':
        await phase(async () => {
          await runPass(options.passes.evaluation ?? options.passes.main, evaluationPassRequest(unmatchedBefore, true));
          unmatchedAfter = unmatchedSignals(unmatchedBefore, collected);
          return { type: 'PASS_DONE' };
        });
        break;
      case 'checkingAssessments':
      case 'assessmentSweep':
        await phase(async () => {
          if (at === 'assessmentSweep') {
            const findings = pending.map((id) => store.findings[id]!);
            await runPass(options.passes.assessment ?? options.passes.main, assessmentSweepRequest(findings));
          }
          pending = missingAssessments({
            seeded: seeded.map((f) => f.id),
            queried: [...queried],
            assessed: [...assessed],
            resolved: [...resolvedIds],
            created: [...created],
          }).filter((id) => store.findings[id] !== undefined && isActiveFinding(store.findings[id], now()));
          return { type: 'ASSESSMENTS_CHECKED', missing: pending.length };
        });
        break;
      case 'reconciling':
        await phase(async () => {
          const plan = staleFindingPlan({
            findings: store.findings,
            seeded: seeded.map((f) => f.id),
            touched: [...reported, ...assessed],
            resolved: [...resolvedIds],
            runHadErrors: context().errors.length > 0,
          });
          for (const id of plan.resolve)
            if (apply({ type: 'resolve', id, auto: true, reason: STALE_REASONS.notDetected, now: now() }).applied)
              staleResolved++;
          if (options.verifier) {
            for (const id of plan.verify) {
              let cleared = false;
              try {
                cleared = await options.verifier(store.findings[id]!);
              } catch {
                cleared = false; // inconclusive: keep the finding active
              }
              if (
                cleared &&
                apply({ type: 'resolve', id, auto: true, reason: STALE_REASONS.verified, now: now() }).applied
              )
                staleResolved++;
            }
          }
          return { type: 'RECONCILED', resolved: staleResolved };
        });
        break;
      case 'recording': {
        const c = context();
        // A clock that went backwards never makes the run end before it started.
        const completedAt = Math.max(now(), startedAt);
        const active = Object.values(store.findings).filter(
          (f) => isActiveFinding(f, completedAt) && (runType === 'full' || collected.some((x) => x.id === f.id)),
        );
        const { status, summary } = runStatus(
          {
            critical: active.filter((f) => f.severity === 'critical').length,
            warning: active.filter((f) => f.severity === 'warning').length,
          },
          c.errors.length,
        );
        const warningPlus = [...new Set(collected.map((f) => f.id))].filter((id) => {
          const s = store.findings[id]?.severity;
          return s === 'warning' || s === 'critical';
        });
        record = {
          schema: 'patrol.run/v1',
          id: options.runId ?? String(startedAt),
          type: runType,
          trigger,
          ...(runType === 'scoped' && options.scope && { scopeResourceIds: [...options.scope.resourceIds] }),
          startedAt,
          completedAt,
          durationMs: completedAt - startedAt,
          phases: ['idle', ...steps.map((s) => s.after.state)].filter((s, i, all) => s !== all[i - 1]),
          status,
          findingsSummary: summary,
          errorCount: c.errors.length,
          errors: c.errors,
          triageFlags: flags.length,
          newFindings: warningPlus.filter((id) => created.has(id)).length,
          existingFindings: warningPlus.filter((id) => !created.has(id)).length,
          resolvedFindings: resolvedIds.size + staleResolved,
          findingIds: [...new Set([...warningPlus, ...assessed])],
          signals,
          unmatchedBeforeEvaluation: unmatchedBefore,
          unmatchedAfterEvaluation: unmatchedAfter,
          evaluationReports: c.evaluationReports,
          refusedReports: c.refusedReports,
          missingAssessments: c.errors.some((e) => e.phase === 'assessmentSweep') ? pending : [],
          toolCalls: allCalls.slice(0, RECORD_TOOL_CALLS_MAX).map(recordedToolCall),
          toolCallCount: allCalls.length,
        };
        await options.onRecord?.(record);
        send({ type: 'RECORDED' });
        break;
      }
      case 'dispatching': {
        const started: Promise<void>[] = [];
        for (const id of new Set(collected.map((f) => f.id))) {
          const f = store.findings[id];
          if (!f || !options.investigate || !shouldInvestigate(f, autonomy, now())) continue;
          send({ type: 'DISPATCH', findingId: id });
          if (context().dispatched === dispatched.length) continue; // the machine did not take it
          apply({ type: 'investigation', id, status: 'running', now: now() });
          dispatched = [...dispatched, id];
          const session = createSafetySession({ ...options.sessionOptions, profile: 'investigation' });
          const investigate = options.investigate;
          const finding = store.findings[id]!;
          started.push(
            Promise.resolve()
              .then(() => investigate(finding, session))
              .catch(() => undefined),
          );
        }
        investigations = Promise.all(started).then(() => undefined);
        send({ type: 'DISPATCH_DONE' });
        break;
      }
      default:
        // A state this runner has no work for (an edited machine): stop rather than spin.
        throw new Error(`runPatrol: no phase for state "${at}" of the Patrol machine`);
    }
    if (state() === at) throw new Error(`runPatrol: the Patrol machine did not leave state "${at}"`);
  }
  if (!record) throw new Error('runPatrol: the run ended without a record');
  return { record, store, steps, dispatched, investigations, requests };
}
