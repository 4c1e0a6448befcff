import type { ContextSummary, RecordingEntry } from 'assistant-safety';
import type { PendingRecovery, SafetyContext } from 'assistant-safety';
import { formatDuration, formatTime, unknownOutcomeOf } from '../model/format.js';
import { ValidatedTargets } from './ValidatedTargets.js';

export interface ContextPanelProps {
  entry: RecordingEntry | undefined;
  /** The entry's place in the track, 0-based: shown as the timeline numbers it (#1 first). */
  index?: number;
  /** Pending recoveries live at the entry's time, from the replay; undefined while unknown. */
  recoveries: readonly PendingRecovery[] | undefined;
  /** Time to live of a recovery in this session. */
  recoveryTtlMs: number | undefined;
  /** The replayed session's context after the entry (validated targets and where they came from); undefined while unknown. */
  replayed?: SafetyContext | undefined;
}

/**
 * The context's fields in plain words; the field's own name (as in recordings, snapshots and the
 * machine's guards) is on hover.
 */
export const CONTEXT_FIELD_LABELS = {
  wroteThisEpisode: 'a write landed this episode',
  readAfterWrite: 'read since the last write',
  consecutiveVerifyBlocks: 'writes blocked awaiting verification',
  writeEpoch: 'writes landed (epoch)',
  inFlight: 'calls in flight',
  inFlightWrite: 'write in flight',
  lastReadTool: 'last read',
  lastWriteTool: 'last write',
} as const satisfies Partial<Record<keyof ContextSummary, string>>;
type ContextField = keyof typeof CONTEXT_FIELD_LABELS;

function Label({ name }: { name: ContextField }) {
  return <dt title={`${name} (the context field's name)`}>{CONTEXT_FIELD_LABELS[name]}</dt>;
}

function Flag({ name, value }: { name: ContextField; value: boolean }) {
  return (
    <div className="ctx-row" data-field={name}>
      <Label name={name} />
      <dd className={value ? 'flag-on' : 'flag-off'}>{value ? 'yes' : 'no'}</dd>
    </div>
  );
}

function Field({ name, children }: { name: ContextField; children: React.ReactNode }) {
  return (
    <div className="ctx-row" data-field={name}>
      <Label name={name} />
      <dd>{children}</dd>
    </div>
  );
}

const toolAt = (tool: string | null, at: number | null) => (tool ? `${tool} at ${formatTime(at)}` : '—');

/** The session's context at the current step: flags, counter, write in flight, last tools, pending recoveries. */
export function ContextPanel({ entry, index, recoveries, recoveryTtlMs, replayed }: ContextPanelProps) {
  if (!entry) {
    return (
      <aside className="context-panel" data-testid="context-panel">
        <h2>Context</h2>
        <p className="muted">No step selected.</p>
      </aside>
    );
  }
  const c: ContextSummary = entry.context;
  return (
    <aside className="context-panel" data-testid="context-panel">
      <h2>Context</h2>
      <p className="muted">
        {index !== undefined && (
          <>
            <strong data-testid="context-step">#{index + 1}</strong> ·{' '}
          </>
        )}
        session <code>{entry.session}</code> at {formatTime(entry.at)}
      </p>
      {entry.call.type === 'endToolCall' && entry.call.unknown === true && (
        <p className="muted" data-testid="context-unknown-outcome">
          Call <code>{entry.call.id}</code> ended, {unknownOutcomeOf(entry)}: it may have acted.
        </p>
      )}
      <dl>
        <Flag name="wroteThisEpisode" value={c.wroteThisEpisode} />
        <Flag name="readAfterWrite" value={c.readAfterWrite} />
        <Field name="consecutiveVerifyBlocks">{c.consecutiveVerifyBlocks}</Field>
        <Field name="writeEpoch">{c.writeEpoch}</Field>
        <Field name="inFlight">{c.inFlight}</Field>
        <Field name="inFlightWrite">
          {c.inFlightWrite
            ? `${c.inFlightWrite.tool} (id ${c.inFlightWrite.id}) since ${formatTime(c.inFlightWrite.startedAt)}`
            : '—'}
        </Field>
        <Field name="lastReadTool">{toolAt(c.lastReadTool, c.lastReadAt)}</Field>
        <Field name="lastWriteTool">{toolAt(c.lastWriteTool, c.lastWriteAt)}</Field>
      </dl>
      <h3>Pending recoveries ({c.pendingRecoveries})</h3>
      {recoveries === undefined ? (
        c.pendingRecoveries > 0 ? (
          <p className="muted">details after the replay reaches this step…</p>
        ) : null
      ) : recoveries.length === 0 ? (
        <p className="muted">none</p>
      ) : (
        <ul className="recoveries">
          {recoveries.map((r) => (
            <li key={r.recoveryId} data-testid="pending-recovery">
              <code>{r.tool}</code> {r.errorCode} ×{r.attempts}
              {recoveryTtlMs !== undefined && (
                <span className="ttl"> — expires in {formatDuration(recoveryTtlMs - (entry.at - r.createdAt))}</span>
              )}
            </li>
          ))}
        </ul>
      )}
      <ValidatedTargets entry={entry} context={replayed} />
      {entry.decision === 'blocked' && (
        <p className="blocked-note">
          Blocked in {entry.before}: <strong>{entry.reasonCode}</strong>
        </p>
      )}
    </aside>
  );
}
