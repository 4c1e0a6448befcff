import type { RecordingImpact } from '../model/WorkerMessages.js';

/** Which recorded decisions the edited machine would change, per recording of the server's folder. */
export function ReplayImpact({
  impacts,
  skipped,
  running,
  error,
  onRun,
}: {
  impacts: RecordingImpact[] | undefined;
  skipped: string[];
  running: boolean;
  error: string | undefined;
  onRun(): void;
}) {
  const changed = impacts?.reduce((n, r) => n + r.changes.length, 0) ?? 0;
  return (
    <section className="edit-replay" data-testid="replay-impact">
      <h3>Recorded sessions</h3>
      <button type="button" data-action="replay-recordings" disabled={running} onClick={onRun}>
        {running ? 'replaying…' : 'replay recordings against this machine'}
      </button>
      {error && <p className="error">{error}</p>}
      {impacts && (
        <p className={changed ? 'edit-bad' : 'edit-good'} data-testid="replay-summary">
          {changed === 0
            ? `no recorded decision changes (${impacts.length} recordings)`
            : `${changed} recorded decision${changed === 1 ? '' : 's'} would change`}
        </p>
      )}
      {impacts
        ?.filter((r) => r.changes.length > 0 || r.error)
        .map((r) => (
          <details key={r.name} className="edit-impact" open={r.changes.length <= 5}>
            <summary>
              {r.name}: {r.error ? r.error : `${r.changes.length} of ${r.entries} decisions change`}
            </summary>
            <ul>
              {r.changes.slice(0, 50).map((c) => (
                <li key={`${c.session}-${c.seq}`} data-testid="decision-change">
                  #{c.seq} {c.call}: was <strong>{c.recorded}</strong>, now <strong>{c.now}</strong>
                </li>
              ))}
              {r.changes.length > 50 && <li className="muted">… {r.changes.length - 50} more</li>}
            </ul>
          </details>
        ))}
      {skipped.length > 0 && <p className="muted">left out (too large to download): {skipped.join(', ')}</p>}
    </section>
  );
}
