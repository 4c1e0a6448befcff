import type { AuditTrace } from './AuditTrace.js';

/** What reading one conversation gave: a trace, a row that is no conversation, or a malformed trace. */
export type RowRead =
  | { type: 'trace'; trace: AuditTrace }
  | { type: 'skipped'; reason: string; line?: number }
  | { type: 'malformed'; id: string; path: string; message: string; line?: number };
