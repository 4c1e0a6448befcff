import type { CheckReport } from '../model/CheckReport.js';

/**
 * The exhaustive check of the edited machine: every violated invariant with
 * its rule, what broke, and its shortest counterexample as steps to play on
 * the diagram; or that every invariant holds.
 */
export function InvariantReport({
  title = 'Safety invariants',
  start = 'a new session',
  report,
  checking,
  error,
  playing,
  onPlay,
  onStop,
}: {
  /** The heading: whose invariants these are. */
  title?: string;
  /** What a counterexample starts from. */
  start?: string;
  report: CheckReport | undefined;
  checking: boolean;
  error: string | undefined;
  playing: { invariant: string; step: number } | null;
  onPlay(invariant: string, step: number): void;
  onStop(): void;
}) {
  return (
    <section className="edit-report" data-testid="invariant-report" aria-busy={checking}>
      <h3>{title}</h3>
      {error && <p className="error">{error}</p>}
      {checking && (
        <p className="muted" data-testid="check-status">
          checking every reachable configuration…
        </p>
      )}
      {!checking && report && (
        <p className={report.violations.length ? 'edit-bad' : 'edit-good'} data-testid="check-status">
          {report.violations.length === 0
            ? `✓ all invariants hold on ${report.edges.toLocaleString('en')} edges (${report.configurations.toLocaleString('en')} configurations, ${(report.ms / 1000).toFixed(1)} s)`
            : `✗ ${report.violations.length} invariant${report.violations.length === 1 ? '' : 's'} violated (${report.configurations.toLocaleString('en')} configurations explored)`}
        </p>
      )}
      {report?.violations.map((v) => {
        const open = playing?.invariant === v.id;
        return (
          <div key={v.id} className="edit-violation" data-testid="invariant-violation" data-invariant={v.id}>
            <div className="edit-violation-title">
              <strong>
                ✗ {v.id} {v.name}
              </strong>
            </div>
            <div className="muted">Rule: {v.sentence}</div>
            <div className="edit-broken">Broken: {v.message}.</div>
            {v.steps.length > 0 && (
              <div className="edit-label">
                Counterexample: {v.steps.length} step{v.steps.length === 1 ? '' : 's'} from {start}
                {v.config ? ` ${v.config}` : ''}
                {v.edges > 1 ? ` (${v.edges} edges break it; this is a shortest path to one)` : ''}
              </div>
            )}
            <ol className="edit-steps">
              {v.steps.map((s, i) => (
                <li key={i}>
                  <button
                    type="button"
                    data-testid="counterexample-step"
                    data-step={i}
                    className={open && playing?.step === i ? 'selected' : ''}
                    onClick={() => onPlay(v.id, i)}
                  >
                    {s.text}
                  </button>
                </li>
              ))}
            </ol>
            {v.steps.length > 0 && (
              <div className="edit-buttons">
                <button type="button" data-action="play-first" onClick={() => onPlay(v.id, 0)}>
                  ▶ play on the diagram
                </button>
                {open && (
                  <>
                    <button
                      type="button"
                      aria-label="previous step"
                      disabled={playing.step === 0}
                      onClick={() => onPlay(v.id, playing.step - 1)}
                    >
                      ◀ step
                    </button>
                    <button
                      type="button"
                      aria-label="next step"
                      disabled={playing.step >= v.steps.length - 1}
                      onClick={() => onPlay(v.id, playing.step + 1)}
                    >
                      step ▶
                    </button>
                    <span className="muted">
                      step {playing.step + 1} of {v.steps.length}
                    </span>
                    <button type="button" onClick={onStop}>
                      stop
                    </button>
                  </>
                )}
              </div>
            )}
          </div>
        );
      })}
    </section>
  );
}
