import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createFileRecorder } from '../src/node/index.js';
import {
  createClassifier,
  createSafetySession,
  createToolLoop,
  pulseClassifier,
  type ClassifiedCall,
  type EscalationAnswer,
  type RecordingEntry,
  type SessionRecorder,
  type SessionState,
  type ToolCall,
  type ToolOutcome,
} from '../src/index.js';
import { createDemoInfrastructure } from './demoInfrastructure.js';
import { DEMO_SCENARIOS, type DemoScenario, type ScriptedTurn } from './demoScenarios.js';

export { DEMO_SCENARIOS } from './demoScenarios.js';
export type { DemoScenario } from './demoScenarios.js';

export interface DemoAgentOptions {
  /** Write each session to `<outDir>/<scenario>.jsonl` (replacing an older file). Default: no files. */
  outDir?: string;
  /** Another recorder per session, e.g. one that streams to the visualiser's live server. */
  recorderFor?: (sessionId: string) => SessionRecorder;
  /**
   * Real milliseconds each tool call and each model response takes, so a
   * live viewer can follow. Default 0. With 0 the session clock is simulated
   * (deterministic recordings); otherwise it is the wall clock.
   */
  delayMs?: number;
  /** Run only these scenarios (by name). Default all of {@link DEMO_SCENARIOS}. */
  scenarios?: readonly string[];
  /** Receives the transcript, line by line. Default: nothing. */
  log?: (line: string) => void;
}

export interface DemoRun {
  scenario: string;
  sessionId: string;
  /** The recording written, if `outDir` was given. */
  file?: string;
  finalState: SessionState;
  /** Where the harness did not do what the script expected (empty when the harness behaves). */
  mismatches: string[];
}

/**
 * Simulated time starts here: recordings are the same on every run. Each scenario starts one
 * minute after the one before it (each lasts well under a minute), so the sessions' own start
 * times order them as the demo runs them, wherever they are shown.
 */
const SIMULATED_START = Date.UTC(2026, 0, 12, 9, 30, 0);
const SCENARIO_SPACING_MS = 60_000;

const clip = (text: string, max = 140) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The reference loop's ordering rule: a findings read and a finding write in one batch run in order. */
export function referenceMustRunInOrder(calls: readonly ClassifiedCall[]): boolean {
  const names = new Set(calls.map((c) => c.name));
  return (
    names.has('patrol_get_findings') && (names.has('patrol_report_finding') || names.has('patrol_resolve_finding'))
  );
}

const label = (o: ToolOutcome) =>
  o.status === 'ok'
    ? 'ok'
    : typeof o.error?.details?.reasonCode === 'string'
      ? `${o.error.error}:${o.error.details.reasonCode}`
      : (o.error?.error ?? o.status);

/**
 * Runs the scripted demo agent: each scenario is one session driven through
 * `createToolLoop` against simulated infrastructure tools, classified with
 * the reference preset; a scenario with `binding` (the payments one) runs on a
 * session with target binding, its own tools and rules, and tells the session
 * each user message. No model is needed.
 *
 * @example
 * const runs = await runDemoAgent({ outDir: 'recordings', log: console.log });
 * runs.every((r) => r.mismatches.length === 0); // true: every unsafe move was caught as scripted
 */
export async function runDemoAgent(options: DemoAgentOptions = {}): Promise<DemoRun[]> {
  const { outDir, recorderFor, delayMs = 0, log = () => {} } = options;
  const chosen = options.scenarios
    ? options.scenarios.map((name) => {
        const found = DEMO_SCENARIOS.find((s) => s.name === name);
        if (!found)
          throw new Error(
            `runDemoAgent: unknown scenario ${JSON.stringify(name)} (have ${DEMO_SCENARIOS.map((s) => s.name).join(', ')})`,
          );
        return found;
      })
    : DEMO_SCENARIOS;
  const runs: DemoRun[] = [];
  for (const scenario of chosen) runs.push(await runScenario(scenario, { outDir, recorderFor, delayMs, log }));
  return runs;
}

async function runScenario(
  scenario: DemoScenario,
  { outDir, recorderFor, delayMs, log }: Required<Pick<DemoAgentOptions, 'delayMs' | 'log'>> & DemoAgentOptions,
): Promise<DemoRun> {
  const sessionId = `demo-${scenario.name}`;
  let simulated = SIMULATED_START + DEMO_SCENARIOS.indexOf(scenario) * SCENARIO_SPACING_MS;
  const now = delayMs > 0 ? Date.now : () => simulated;
  const think = async (ms: number) => {
    simulated += ms;
    if (delayMs > 0) await sleep(delayMs);
  };

  const recorders: SessionRecorder[] = [];
  let file: string | undefined;
  let fileRecorder: ReturnType<typeof createFileRecorder> | undefined;
  if (outDir !== undefined) {
    file = join(outDir, `${scenario.name}.jsonl`);
    rmSync(file, { force: true }); // fresh: the file recorder appends
    fileRecorder = createFileRecorder(file);
    recorders.push(fileRecorder);
  }
  if (recorderFor) recorders.push(recorderFor(sessionId));
  const recorder: SessionRecorder = { record: (entry: RecordingEntry) => recorders.forEach((r) => r.record(entry)) };

  const infra = createDemoInfrastructure();
  const { binding } = scenario;
  const tools = binding?.createTools();
  const session = createSafetySession({ id: sessionId, now, recorder, ...(binding && { targets: 'bind' as const }) });
  let answers: string[] = [];
  let approvals: EscalationAnswer[] = [];
  const loop = createToolLoop({
    session,
    classify: binding ? createClassifier(binding.rules) : pulseClassifier,
    mustRunInOrder: referenceMustRunInOrder,
    // With real delays every tool takes delayMs: the limit is on top of that.
    ...(scenario.toolTimeoutMs !== undefined && { toolTimeoutMs: scenario.toolTimeoutMs + delayMs }),
    ...(binding && {
      escalate: binding.escalate,
      async onEscalate(block) {
        const answer = approvals.shift() ?? 'deny';
        const decision = typeof answer === 'string' ? answer : answer.decision;
        log(
          `   asks a person about ${block.reasonCode} ${JSON.stringify(block.toJSON().details['targets'] ?? [])}: ${decision}`,
        );
        return answer;
      },
    }),
    async execute(call: ToolCall, signal: AbortSignal) {
      await think(400); // every tool takes a while, in simulated time and (with delayMs) in real time
      if (call.name === 'pulse_question') return { answer: answers.shift() ?? '(no answer)' };
      return tools ? tools(call.name, call.args) : infra.run(call, signal);
    },
  });

  const mismatches: string[] = [];
  let callNo = 0;
  log(`\n== ${scenario.title} (${sessionId}) ==`);
  try {
    for (const [t, turn] of scenario.turns.entries()) {
      await runTurn(turn, t);
    }
  } finally {
    fileRecorder?.close();
  }
  log(`   session ends in ${session.state}${mismatches.length ? `; ${mismatches.length} MISMATCHES` : ''}`);
  return {
    scenario: scenario.name,
    sessionId,
    ...(file !== undefined && { file }),
    finalState: session.state,
    mismatches,
  };

  async function runTurn(turn: ScriptedTurn, t: number) {
    loop.startTurn();
    answers = [...(turn.answers ?? [])];
    approvals = [...(turn.approvals ?? [])];
    log(`user: ${turn.user}`);
    // With binding the session is told what the user said: a target the user named is validated by their words.
    if (binding) session.userMessage(turn.user);
    if (turn.preResolved) {
      session.targetEstablished();
      log('   (the resources the user named were resolved before the loop started)');
    }
    for (const [r, response] of turn.responses.entries()) {
      await think(1_200);
      const where = `turn ${t + 1}, response ${r + 1}`;
      if ('answer' in response) {
        const decision = loop.finalAnswer();
        const got = decision.allowed ? 'allowed' : 'refused';
        log(`model: ${response.think}`);
        log(`   final answer: "${response.answer}" -> ${got}${decision.allowed ? '' : `: ${decision.constraint}`}`);
        if (got !== response.expect) mismatches.push(`${where}: final answer ${got}, expected ${response.expect}`);
        continue;
      }
      log(`model: ${response.think}`);
      const calls = response.calls.map((c) => ({
        id: `call_${String(++callNo).padStart(3, '0')}`,
        name: c.name,
        args: c.args,
      }));
      const outcomes = await loop.runBatch(calls);
      outcomes.forEach((outcome, i) => {
        const expected = response.calls[i]!.expect;
        const got = label(outcome);
        const detail =
          outcome.status === 'ok'
            ? clip(JSON.stringify(outcome.result))
            : (outcome.error?.message ?? '').replace(`${outcome.error?.error}: `, '');
        log(`   ${outcome.name} ${JSON.stringify(calls[i]!.args)} [${outcome.kind}] -> ${got}: ${detail}`);
        if (got !== expected) mismatches.push(`${where}: ${outcome.name} ${got}, expected ${expected}`);
      });
      log(`   state: ${session.state}`);
    }
  }
}
