import { createReadStream, rmSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExecutionProfile, TargetMode } from '../safety/SafetySessionTypes.js';
import { CODING_AGENT_SESSION } from '../presets/codingAgent.js';
import { createFileRecorder } from '../node/fileRecorder.js';
import type { AuditReport } from './AuditReport.js';
import { createAuditClassifier, type AuditClassifier, type AuditClassifierOptions } from './createAuditClassifier.js';
import { createCodingAuditClassifier } from './createCodingAuditClassifier.js';
import { createAuditReport } from './createAuditReport.js';
import { createTraceReader, type TraceFormat } from './createTraceReader.js';
import { gateTrace } from './gateTrace.js';
import { keysOf, refuseUnknownOptions } from '../core/knownKeys.js';
import { outputFolderProblem } from '../node/outputFolder.js';

/*
 * Node only (exported from assistant-safety/node): the audit over files and folders, streamed line
 * by line, with one recording a trace when asked.
 */

/** The longest line read by default: 16 MiB. A longer one is reported (file and line) and passed over. */
export const AUDIT_MAX_LINE_BYTES = 16 * 1024 * 1024;

/** How far an audit has got, for a progress line. */
export interface AuditProgress {
  file: string;
  files: number;
  traces: number;
  calls: number;
}

export interface AuditFilesOptions extends AuditClassifierOptions {
  /** `auto` (default) detects each file's format. */
  format?: TraceFormat | 'auto';
  /**
   * The sessions' target mode. Default: what the hook uses for a Claude Code transcript (`'bind'`),
   * `'ignore'` for every other format.
   */
  targets?: TargetMode;
  /**
   * The sessions' execution profile. Default: what the hook uses for a Claude Code transcript
   * (`'coding'`), the session's default for every other format.
   */
  profile?: ExecutionProfile;
  /**
   * Whether the traces' user and system messages are the user's words under target binding. Default
   * true; false for exports of sub-agents' runs, whose user message a parent model wrote.
   */
  userWords?: boolean;
  /** Block reasons that count as escalations (default: the attestable ones). */
  escalate?: readonly string[];
  /** Write each audited trace as a recording in this folder: `<trace id>.jsonl`, its session id the trace id. */
  recordings?: string;
  /** Default {@link AUDIT_MAX_LINE_BYTES}. */
  maxLineBytes?: number;
  /** Told after each trace (the caller decides how often to show it). */
  onProgress?: (progress: AuditProgress) => void;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A path that does not exist or cannot be read as a folder or file, or a recordings folder that cannot be written. */
export class AuditInputError extends Error {
  override name = 'AuditInputError';
}

const TRACE_FILE = /\.(jsonl|ndjson|json)$/i;

/** The trace files of the paths: files as given, folders searched recursively for .jsonl, .ndjson and .json, in name order. */
async function traceFiles(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string) => {
    const names = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    for (const d of names) {
      if (d.isDirectory()) await walk(join(dir, d.name));
      else if (d.isFile() && TRACE_FILE.test(d.name)) out.push(join(dir, d.name));
    }
  };
  for (const path of paths) {
    const s = await stat(path).catch(() => undefined);
    if (!s) throw new AuditInputError(`no such file or folder: ${path}`);
    if (s.isDirectory()) await walk(path);
    else out.push(path);
  }
  return out;
}

/**
 * Calls `onLine` for every line of a file, read in chunks: a line is held only until its newline,
 * and one longer than `max` bytes is not held at all (its text is undefined). `onLine` returning
 * `false` stops the reading.
 */
async function forEachLine(
  file: string,
  max: number,
  onLine: (text: string | undefined, line: number) => boolean | void,
): Promise<void> {
  let stopped = false;
  let parts: Buffer[] = [];
  let length = 0;
  let tooLong = false;
  let line = 1;
  const emit = () => {
    if (tooLong) stopped = onLine(undefined, line) === false;
    else if (length > 0) {
      let text = Buffer.concat(parts, length).toString('utf8');
      if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      if (text.endsWith('\r')) text = text.slice(0, -1);
      stopped = onLine(text, line) === false;
    }
    parts = [];
    length = 0;
    tooLong = false;
    line++;
  };
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      const end = nl === -1 ? chunk.length : nl;
      if (!tooLong && end > start) {
        if (length + end - start > max) {
          tooLong = true;
          parts = [];
          length = 0;
        } else {
          parts.push(chunk.subarray(start, end));
          length += end - start;
        }
      }
      if (nl === -1) break;
      emit();
      if (stopped) return;
      start = nl + 1;
    }
  }
  if (length > 0 || tooLong) emit();
}

const mib = (bytes: number) => (bytes < 1024 * 1024 ? `${bytes} bytes` : `${+(bytes / (1024 * 1024)).toFixed(1)} MiB`);

const TOO_LARGE_JSON = 'a JSON document larger than ';

/** Whether a problem is a .json file too large to read whole and not JSON Lines either (an export, only too large). */
export const isTooLargeJsonDocument = (message: string) => message.startsWith(TOO_LARGE_JSON);

/** A file name for a trace id: safe characters only, unique in the folder. */
function recordingName(id: string, used: Set<string>): string {
  // The names the app's server offers: a letter, digit or underscore first, then those, dots and dashes.
  const base =
    id
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^[.-]/, '_')
      .slice(0, 120) || 'trace';
  let name = `${base}.jsonl`;
  for (let n = 2; used.has(name); n++) name = `${base}-${n}.jsonl`;
  used.add(name);
  return name;
}

const OPTION_KEYS = keysOf<AuditFilesOptions>({
  rules: true,
  nameVerbs: true,
  format: true,
  targets: true,
  profile: true,
  userWords: true,
  escalate: true,
  recordings: true,
  maxLineBytes: true,
  onProgress: true,
});

/**
 * Audits the traces in files and folders: each file streamed line by line (a `.json` file that is
 * one JSON value is read whole), each trace run through its own session, every count added to the
 * report. Malformed input (a line that is not JSON, a line longer than `maxLineBytes`, a trace that
 * cannot be read) is reported with its file and line and the run goes on. Memory stays bounded by
 * the longest line and, for Claude Code transcripts and OpenTelemetry spans (a trace spreads over
 * lines), by the largest file's traces.
 *
 * @throws {AuditInputError} for a path that does not exist, or a `recordings` folder that cannot be
 *   written (a file on its path, say), before any trace is read.
 * @throws {ClassifierRulesError} for malformed rules.
 * @example
 * const report = await auditFiles(['traces/'], { rules: { tools: { get_vm: 'read' } } });
 * console.log(report.tracesWithBlock, report.blocked);
 */
export async function auditFiles(paths: readonly string[], options: AuditFilesOptions = {}): Promise<AuditReport> {
  // A misspelt `rules` or `targets` would print a report of another audit than the one asked for.
  refuseUnknownOptions('auditFiles', options, OPTION_KEYS);
  const files = await traceFiles(paths);
  // Before any trace: a recordings folder under a file would fail halfway, after some recordings were written.
  if (options.recordings !== undefined) {
    const problem = outputFolderProblem(options.recordings, { create: true });
    if (problem !== undefined) throw new AuditInputError(`recordings ${options.recordings}: ${problem}`);
  }
  // A coding agent's rules file may hold a `shell` section: it is for Bash calls, which only the
  // coding-agent classifier reads (checked here, before any file, as the hook install checks it).
  const { shell, ...rest } = isRecord(options.rules) ? options.rules : { shell: undefined };
  const generalRules = shell === undefined ? options.rules : rest;
  if (shell !== undefined) createCodingAuditClassifier({ rules: options.rules });
  const classifier = createAuditClassifier({
    ...(generalRules !== undefined && { rules: generalRules }),
    ...(options.nameVerbs !== undefined && { nameVerbs: options.nameVerbs }),
  });
  // A Claude Code transcript is judged as its hook judges it: the coding-agent classifier (in the
  // folder the agent ran in) and the hook's session, unless the options say otherwise.
  const coding = new Map<string, AuditClassifier>();
  const codingClassifier = (cwd: string | undefined) => {
    let c = coding.get(cwd ?? '');
    if (!c)
      coding.set(
        cwd ?? '',
        (c = createCodingAuditClassifier({
          ...(options.rules !== undefined && { rules: options.rules }),
          ...(cwd !== undefined && { cwd }),
        })),
      );
    return c;
  };
  const builder = createAuditReport(options.escalate ? { escalate: options.escalate } : {});
  const max = options.maxLineBytes ?? AUDIT_MAX_LINE_BYTES;
  const used = new Set<string>();
  const progress: AuditProgress = { file: '', files: 0, traces: 0, calls: 0 };
  for (const file of files) {
    let traces = 0;
    const reader = createTraceReader({
      file,
      format: options.format ?? 'auto',
      onRead: (event) => {
        if (event.type === 'skipped') builder.skipped();
        else if (event.type === 'malformed') builder.malformed(event.issue);
        else {
          let recorder: ReturnType<typeof createFileRecorder> | undefined;
          let path: string | undefined;
          if (options.recordings !== undefined) {
            // A fresh file: a recording left by an earlier run of the same traces is replaced, not appended to.
            path = join(options.recordings, recordingName(event.trace.id, used));
            rmSync(path, { force: true });
            recorder = createFileRecorder(path);
          }
          try {
            const isCoding = event.format === 'claude-code';
            const targets = options.targets ?? (isCoding ? CODING_AGENT_SESSION.targets : undefined);
            const profile = options.profile ?? (isCoding ? CODING_AGENT_SESSION.profile : undefined);
            const audit = gateTrace(event.trace, {
              classifier: isCoding ? codingClassifier(event.trace.cwd) : classifier,
              ...(targets && { targets }),
              ...(profile && { profile }),
              ...(options.userWords === false && { userWords: false }),
              ...(recorder && { recorder }),
            });
            builder.add(audit);
            traces++;
            progress.traces++;
            progress.calls += audit.calls.length;
          } catch (e) {
            // A trace the session refuses (it should not happen: the readers check what it needs) is
            // reported like any malformed trace, and leaves no half recording.
            const { file: at, line } = event.trace.source;
            builder.malformed({
              file: at,
              line,
              trace: event.trace.id,
              path: '',
              message: `the session refused the trace: ${(e as Error).message}`,
            });
            recorder?.close();
            recorder = undefined;
            if (path !== undefined) rmSync(path, { force: true });
          } finally {
            recorder?.close();
          }
          options.onProgress?.(progress);
        }
      },
    });
    progress.file = file;
    progress.files++;
    const bad = (line: number, message: string) => builder.malformed({ file, line, path: '', message });
    let whole: unknown;
    let isWhole = false;
    // A .json file too large to read whole is read as JSON Lines: if its first line is not a value, it
    // is one large document, which is said once (not a line length or a parse error a line).
    let tooLargeWhole: number | undefined;
    if (/\.json$/i.test(file)) {
      const size = (await stat(file)).size;
      if (size <= max) {
        try {
          whole = JSON.parse(await readFile(file, 'utf8'));
          isWhole = true;
        } catch {
          // Not one JSON value: read it as JSON Lines.
        }
      } else tooLargeWhole = size;
    }
    if (isWhole) reader.push(whole, 1);
    else {
      let first = true;
      const tooLarge = (line: number, why: string) => {
        bad(
          line,
          `${TOO_LARGE_JSON}${mib(max)} must be given as JSON Lines, one conversation per line (a .jsonl file): this ${mib(tooLargeWhole!)} file was read as JSON Lines, and its line ${line} is ${why}; not read`,
        );
        return false;
      };
      await forEachLine(file, max, (text, line) => {
        const firstLine = first && tooLargeWhole !== undefined;
        if (text === undefined) {
          if (firstLine) return tooLarge(line, `longer than ${max} bytes (the line length limit)`);
          return bad(line, `longer than ${max} bytes (the line length limit); not read`);
        }
        if (text.trim() === '') return;
        first = false;
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch (e) {
          if (firstLine) return tooLarge(line, `not JSON (${(e as Error).message})`);
          return bad(line, `not JSON: ${(e as Error).message}`);
        }
        reader.push(value, line);
      });
    }
    reader.end();
    builder.file(file, reader.format ?? null, traces);
  }
  return builder.report();
}
