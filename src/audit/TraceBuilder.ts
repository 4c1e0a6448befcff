import type { ToolDeclaration } from '../classify/index.js';
import type { AuditTrace, TraceStep } from './AuditTrace.js';
import { describeValue } from './TraceIssue.js';

/** Where a step came from, for a problem's message: the line and the field. */
export interface StepPlace {
  line: number;
  path: string;
}

/** A problem found while building a trace (the file is added by the reader). */
export interface BuildProblem extends StepPlace {
  message: string;
}

/**
 * Collects the steps of one trace in order and checks what every format must hold: a call id is
 * not used again while its call waits for its result, a result answers a call made earlier in the
 * trace and not yet answered. An id reused after its result came is a new call (real exports do
 * this): the second call is paired with the second result. The first
 * problem makes the trace malformed; later steps are then ignored. A final answer is the
 * assistant's text after its last call and result.
 */
export class TraceBuilder {
  readonly steps: TraceStep[] = [];
  problem: BuildProblem | undefined;
  /** Calls whose arguments could not be read: the trace is audited, each told as a problem. */
  private readonly unreadable: BuildProblem[] = [];
  private readonly open = new Set<string>();
  private readonly called = new Set<string>();
  private textLast = false;
  private lastAt: number | undefined;

  call(id: string, tool: string, args: unknown, place: StepPlace, at?: number, cwd?: string): void {
    if (this.problem) return;
    if (this.open.has(id)) {
      this.problem = {
        ...place,
        message: `tool call id ${JSON.stringify(id)} is used again before its call's result came`,
      };
      return;
    }
    this.called.add(id);
    this.open.add(id);
    this.textLast = false;
    const step: Extract<TraceStep, { type: 'call' }> = { type: 'call', id, tool, args };
    if (at !== undefined) step.at = at;
    if (cwd !== undefined) step.cwd = cwd;
    this.steps.push(step);
    if (at !== undefined) this.lastAt = at;
  }

  result(id: string, ok: boolean, place: StepPlace, at?: number, value?: unknown, cwd?: string): void {
    if (this.problem) return;
    if (!this.open.has(id)) {
      this.problem = {
        ...place,
        message: this.called.has(id)
          ? `a second result for tool call ${JSON.stringify(id)}`
          : `a tool result for ${JSON.stringify(id)}, but no earlier tool call has that id`,
      };
      return;
    }
    this.open.delete(id);
    this.textLast = false;
    const step: Extract<TraceStep, { type: 'result' }> = { type: 'result', id, ok };
    if (value !== undefined) step.value = value;
    if (at !== undefined) step.at = at;
    if (cwd !== undefined) step.cwd = cwd;
    this.steps.push(step);
    if (at !== undefined) this.lastAt = at;
  }

  /** Marks the last call with this id as having created the file it writes. */
  createdFile(id: string): void {
    const call = this.steps.findLast((s) => s.type === 'call' && s.id === id);
    if (call?.type === 'call') call.newFile = true;
  }

  /** A user or system message with text: the user's words for provenance (it does not end a final answer). */
  message(source: 'user' | 'system', text: string, at?: number): void {
    if (this.problem || text.trim() === '') return;
    this.steps.push(at === undefined ? { type: 'message', source, text } : { type: 'message', source, text, at });
  }

  /** Assistant text (non-empty): a final answer if nothing follows it. */
  text(at?: number): void {
    this.textLast = true;
    if (at !== undefined) this.lastAt = at;
  }

  /**
   * Notes that the call just made gave arguments that are not JSON (`text`, at `place`): it is judged
   * as the classifier judges arguments it cannot read, as missing ones, and the report tells it.
   */
  unreadableArguments(id: string, tool: string, text: unknown, place: StepPlace): void {
    if (this.problem) return;
    this.unreadable.push({
      ...place,
      message: `tool call ${JSON.stringify(id)} (${tool}): its arguments are not JSON, got ${describeValue(text)}: judged as a call without its arguments`,
    });
  }

  fail(problem: BuildProblem): void {
    this.problem ??= problem;
  }

  /** The trace, with its final answer when it ends on assistant text. */
  finish(id: string, file: string, line: number, tools?: ToolDeclaration[], cwd?: string): AuditTrace {
    if (this.textLast)
      this.steps.push(this.lastAt === undefined ? { type: 'final' } : { type: 'final', at: this.lastAt });
    this.textLast = false;
    const trace: AuditTrace = { id, source: { file, line }, steps: this.steps };
    if (tools && tools.length > 0) trace.tools = tools;
    if (cwd !== undefined) trace.cwd = cwd;
    if (this.unreadable.length > 0)
      trace.unreadableArguments = this.unreadable.map((p) => ({
        file,
        line: p.line,
        trace: id,
        path: p.path,
        message: p.message,
      }));
    return trace;
  }
}
