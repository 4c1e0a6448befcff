import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { ClassifierRulesError } from '../harness/classifier.js';
import { blockReasonProblem } from '../safety/blockReasons.js';
import { renderAuditHtml, renderAuditMarkdown, TraceFormat, type AuditReport } from '../audit/index.js';
import { auditFiles, AuditInputError, type AuditProgress } from '../node/index.js';
import { isTooLargeJsonDocument } from '../audit/auditFiles.js';
import { UsageError, type Command } from './Command.js';
import { EXECUTION_PROFILES } from '../safety/SafetyContext.js';
import { outputFolderProblem } from '../node/outputFolder.js';
import type { ExecutionProfile } from '../safety/SafetySessionTypes.js';

const FORMATS = ['auto', ...TraceFormat.options] as const;

/** The report's form by the output file's extension, in any case (`.JSON` as `.json`). */
const REPORT_FILE = /\.(json|md|html)$/i;

/** The report in the format the output file's extension names (JSON without one). */
function render(report: AuditReport, out: string | undefined): string {
  const form = out === undefined ? 'json' : REPORT_FILE.exec(out)?.[1]?.toLowerCase();
  if (form === 'md') return renderAuditMarkdown(report);
  if (form === 'html') return renderAuditHtml(report);
  return JSON.stringify(report, null, 2) + '\n';
}

/**
 * Why the report or the recordings could not be written where the options say, or undefined:
 * asked before the audit runs, so a mistyped folder costs nothing (not the whole run, nor half
 * the recordings).
 */
function outputProblem(out: string | undefined, recordings: string | undefined): string | undefined {
  if (out !== undefined) {
    const isFolder = (() => {
      try {
        return statSync(out).isDirectory();
      } catch {
        return false;
      }
    })();
    const problem = isFolder ? 'a folder, not a file' : outputFolderProblem(dirname(out), { create: false });
    if (problem !== undefined) return `--out ${out}: ${problem}`;
  }
  if (recordings !== undefined) {
    const problem = outputFolderProblem(recordings, { create: true });
    if (problem !== undefined) return `--recordings ${recordings}: ${problem}`;
  }
  return undefined;
}

export const auditCommand: Command = {
  name: 'audit',
  summary:
    'what the gate would have done to traces an agent already produced (OpenAI, AI SDK, Claude Code, OpenTelemetry)',
  usage: `assistant-safety audit FILE|DIR... [--format auto|openai|ai-sdk|claude-code|otel] [--rules FILE]
                       [--name-verbs] [--targets bind|ignore] [--profile NAME] [--no-user-words]
                       [--escalate CODE,...] [--recordings DIR] [--out report.json|report.md|report.html]

Runs every trace (one conversation: a JSON Lines row, a JSON file, a transcript)
through its own session: each assistant tool call begun in its order, each tool
result ending it, the final assistant text checked as a final answer. A blocked
call is counted and treated as not run (its result is ignored), and the trace
goes on as recorded: the report is a counterfactual, and says so. Folders are
searched for .jsonl, .ndjson and .json files. A Claude Code transcript is judged
as \`assistant-safety hook claude-code\` judges by default (its coding-agent
classifier, --targets bind, --profile coding): the report says what the hook
would have done.

  --format FORMAT     auto (default: detected per file), openai ({ "messages": [...] }
                      rows with tool_calls and tool messages), ai-sdk (ModelMessage or
                      UIMessage), claude-code (transcripts), otel (OTLP JSON spans)
  --rules FILE        classifier rules (the createClassifier format); they win over what
                      the traces declare (in a Claude Code transcript, over the hook's
                      coding-agent table, as the hook's --rules do). Without them,
                      undeclared tools are writes and the report lists them
  --name-verbs        opt in to the name-verb heuristic (get_, list_, read_ ... as reads)
  --targets MODE      bind: sessions bind writes to validated targets; ignore: by kind
                      (default: bind for Claude Code transcripts, ignore for the rest)
  --profile NAME      the sessions' profile: ${EXECUTION_PROFILES.join(', ')} (default:
                      coding for Claude Code transcripts, interactive for the rest)
  --no-user-words     with --targets bind, the traces' user and system messages validate
                      nothing: for exports of sub-agents' runs, whose user message a model wrote
  --escalate CODES    block reasons that count as asking a person (default
                      NO_VALIDATED_TARGET,UNVERIFIED_WRITE,TARGET_NOT_VALIDATED,
                      EGRESS_NOT_VALIDATED: the attestable ones a call can hit)
  --recordings DIR    write each trace as a recording, DIR/<trace id>.jsonl (its session id
                      is the trace id), for replay and assistant-safety serve --recordings DIR
  --out FILE          the report: .json (the default, on stdout without --out), .md, .html

A malformed line or trace is reported with its file and line (in the report's
errors and on stderr) and the run goes on. On a terminal, a progress line.

Exit codes: 0 audited, 1 not one trace audited (the report is still written), 2 bad arguments, a missing
path, bad rules, or an --out or --recordings folder that cannot be written (checked before the audit runs).`,
  async run(argv, io) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        format: { type: 'string', default: 'auto' },
        rules: { type: 'string' },
        'name-verbs': { type: 'boolean' },
        targets: { type: 'string' },
        profile: { type: 'string' },
        'no-user-words': { type: 'boolean' },
        escalate: { type: 'string' },
        recordings: { type: 'string' },
        out: { type: 'string' },
      },
    });
    if (positionals.length === 0) throw new UsageError('audit needs at least one trace file or folder');
    const format = values.format as (typeof FORMATS)[number];
    if (!FORMATS.includes(format)) throw new UsageError(`--format: one of ${FORMATS.join(', ')}, got "${format}"`);
    if (values.targets !== undefined && values.targets !== 'bind' && values.targets !== 'ignore')
      throw new UsageError(`--targets: bind or ignore, got "${values.targets}"`);
    const profile = values.profile as ExecutionProfile | undefined;
    if (profile !== undefined && !EXECUTION_PROFILES.includes(profile))
      throw new UsageError(`--profile: one of ${EXECUTION_PROFILES.join(', ')}, got "${profile}"`);
    if (values.out !== undefined && !REPORT_FILE.test(values.out))
      throw new UsageError(`--out: a .json, .md or .html file, got "${values.out}"`);
    const output = outputProblem(values.out, values.recordings);
    if (output !== undefined) {
      io.err(`audit: ${output}`);
      return 2;
    }
    let rules: unknown;
    if (values.rules !== undefined) {
      // A hook's rules file (a `shell` section too) is welcome: auditFiles checks it, naming the path.
      try {
        rules = JSON.parse(readFileSync(values.rules, 'utf8'));
      } catch (e) {
        io.err(`audit: --rules ${values.rules}: ${(e as Error).message}`);
        return 2;
      }
    }
    const escalate = values.escalate
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const code of escalate ?? []) {
      const problem = blockReasonProblem(code);
      if (problem !== undefined) throw new UsageError(`--escalate: ${problem}`);
    }

    const tty = process.stderr.isTTY === true;
    let shown = 0;
    const onProgress = (p: AuditProgress) => {
      const now = Date.now();
      if (now - shown < 200) return;
      shown = now;
      process.stderr.write(
        `\raudit: ${p.files} files, ${p.traces} traces, ${p.calls} calls: ${p.file}`.slice(0, 160) + '\x1b[K',
      );
    };
    let report: AuditReport;
    try {
      report = await auditFiles(positionals, {
        format,
        ...(rules !== undefined && { rules }),
        ...(values['name-verbs'] && { nameVerbs: true }),
        ...((values.targets === 'bind' || values.targets === 'ignore') && { targets: values.targets }),
        ...(profile !== undefined && { profile }),
        ...(values['no-user-words'] && { userWords: false }),
        ...(escalate && { escalate }),
        ...(values.recordings !== undefined && { recordings: values.recordings }),
        ...(tty && { onProgress }),
      });
    } catch (e) {
      if (e instanceof AuditInputError || e instanceof ClassifierRulesError) {
        io.err(`audit: ${e instanceof ClassifierRulesError ? `--rules ${values.rules}: ` : ''}${e.message}`);
        return 2;
      }
      throw e;
    } finally {
      if (tty && shown > 0) process.stderr.write('\r\x1b[K');
    }
    // When nothing was audited the input is likely not conversations at all: a few lines show that.
    const listed = report.traces === 0 ? report.errors.slice(0, 5) : report.errors;
    for (const e of listed) io.err(`audit: ${e.file}:${e.line}${e.path ? ` ${e.path}` : ''}: ${e.message}`);
    if (report.errorCount > listed.length) io.err(`audit: ... and ${report.errorCount - listed.length} more problems`);
    const text = render(report, values.out);
    if (values.out !== undefined) {
      try {
        writeFileSync(values.out, text);
      } catch (e) {
        // Checked before the run; the folder can still go (or the disk fill) while it ran.
        io.err(`audit: --out ${values.out}: cannot write: ${(e as Error).message}`);
        return 2;
      }
      io.err(
        `audit: ${report.traces} traces, ${report.tracesWithBlock} with a blocked call, ${report.finalAnswersBlocked} final answers blocked${report.unreadableArguments > 0 ? `, ${report.unreadableArguments} calls with arguments that are not JSON` : ''}; wrote ${values.out}`,
      );
    } else io.out(text.trimEnd());
    // A run that audited nothing read something other than conversations: not a clean report.
    if (report.traces === 0) {
      // A JSON document too large to read whole is an export all right: the problem above says what to do.
      const tooLarge = report.errors.length > 0 && report.errors.every((e) => isTooLargeJsonDocument(e.message));
      io.err(
        `audit: no trace was audited (${report.skipped} skipped, ${report.malformed} of them malformed, in ${report.files.length} file${report.files.length === 1 ? '' : 's'})${tooLarge ? '' : ': is the input an export of agent conversations? See --format'}`,
      );
      return 1;
    }
    return 0;
  },
};
