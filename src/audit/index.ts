/*
 * assistant-safety/audit: what the gate would have done to traces an agent already produced.
 * Trace formats as zod schemas (OpenAI chat messages, the Vercel AI SDK's messages, Claude Code
 * transcripts, OpenTelemetry GenAI spans), their detection, one trace run through a session, the
 * report and its Markdown and HTML. Runtime-neutral: reading files is `auditFiles` in
 * `assistant-safety/node`.
 */
export { AuditTrace, TraceStep, TraceSource } from './AuditTrace.js';
export { TraceIssue } from './TraceIssue.js';
export { OpenAiMessage, OpenAiToolCall, OpenAiTraceRow, OPENAI_ROLES } from './openaiTrace.js';
export {
  AiSdkModelMessage,
  AiSdkToolCallPart,
  AiSdkToolResultPart,
  AiSdkUIMessage,
  AiSdkToolUIPart,
} from './aiSdkTrace.js';
export { ClaudeCodeLine, ClaudeCodeToolUse, ClaudeCodeToolResult } from './claudeCodeTrace.js';
export { OtelExport, OtelSpan } from './otelTrace.js';
export { createTraceReader, detectTraceFormat, TraceFormat } from './createTraceReader.js';
export type { TraceReader, TraceReaderOptions, TraceReadEvent } from './createTraceReader.js';
export { createAuditClassifier } from './createAuditClassifier.js';
export type { AuditClassifier, AuditClassifierOptions, AuditClassification } from './createAuditClassifier.js';
export { gateTrace } from './gateTrace.js';
export type { GateTraceOptions, TraceAudit, CallDecision } from './gateTrace.js';
export { AuditReport, COUNTERFACTUAL_NOTE } from './AuditReport.js';
export { createAuditReport, DEFAULT_ESCALATE } from './createAuditReport.js';
export type { AuditReportBuilder, AuditReportOptions } from './createAuditReport.js';
export { renderAuditMarkdown } from './renderAuditMarkdown.js';
export { renderAuditHtml } from './renderAuditHtml.js';
