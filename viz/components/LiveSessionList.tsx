import type { LiveSessionInfo } from 'assistant-safety/live';
import type { LiveStatus } from '../hooks/useLiveSession.js';
import { formatTime } from '../model/format.js';

/** The hub's live sessions; click one to follow it. */
export function LiveSessionList({
  status,
  sessions,
  followed,
  error,
  onFollow,
  autoFollow,
  onAutoFollow,
}: {
  status: LiveStatus;
  sessions: LiveSessionInfo[];
  followed: string | undefined;
  error: string | undefined;
  onFollow: (id: string) => void;
  /** Follow each new session as it appears. */
  autoFollow: boolean;
  onAutoFollow: (on: boolean) => void;
}) {
  return (
    <section className="source">
      <h2>Live sessions</h2>
      <p className="muted">hub: {status === 'open' ? 'connected' : status}</p>
      {error && <p className="error">{error}</p>}
      <label className="auto-follow">
        <input type="checkbox" checked={autoFollow} onChange={(e) => onAutoFollow(e.target.checked)} /> follow the
        newest session
      </label>
      {sessions.length === 0 && (
        <p className="muted">
          No live session yet. An agent streams one with <code>createLiveRecorder({'{ url }'})</code>.
        </p>
      )}
      <ul className="live-list">
        {sessions.map((s) => (
          <li key={s.id}>
            <button
              type="button"
              data-testid="live-session"
              data-session={s.id}
              className={s.id === followed ? 'selected' : ''}
              onClick={() => onFollow(s.id)}
            >
              <span
                className={`dot ${s.connected ? 'dot-on' : 'dot-off'}`}
                title={s.connected ? 'connected' : 'ended'}
              />
              <span className="live-id">
                {s.agent ? `${s.agent} · ` : ''}
                {s.id}
              </span>
              <span className="live-meta">
                {s.state} · {s.events} events · {formatTime(s.lastAt)}
                {s.truncated ? ' · truncated' : ''}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
