import type { LiveSessionInfo } from 'assistant-safety/live';
import type { LiveStatus } from '../hooks/useLiveSession.js';
import { formatTime } from '../model/format.js';

/** At most this many sessions are listed (the newest); the rest are counted. */
export const MAX_LISTED_SESSIONS = 12;

/**
 * The hub's live sessions, newest first and at most {@link MAX_LISTED_SESSIONS}
 * of them; click one to follow it. The heading, the follow control and the
 * legend of the status dots stay put while the list scrolls.
 */
export function LiveSessionList({
  status,
  sessions,
  followed,
  error,
  onFollow,
  autoFollow,
  onAutoFollow,
  awaited,
}: {
  status: LiveStatus;
  sessions: LiveSessionInfo[];
  followed: string | undefined;
  error: string | undefined;
  onFollow: (id: string) => void;
  /** Follow each new session as it appears. */
  autoFollow: boolean;
  onAutoFollow: (on: boolean) => void;
  /** A session asked for by a link (`?session=`) that the hub does not know (yet). */
  awaited?: string | undefined;
}) {
  // The hub lists sessions by their start time (their own clock), oldest first: the newest is last.
  const newestFirst = [...sessions].reverse();
  const listed = newestFirst.slice(0, MAX_LISTED_SESSIONS);
  // The followed session stays listed even when it is older than the ones shown.
  const followedInfo = newestFirst.find((s) => s.id === followed);
  if (followedInfo && !listed.includes(followedInfo)) listed.push(followedInfo);
  const hidden = sessions.length - listed.length;
  return (
    <section className="source live-source">
      <div className="live-head">
        <h2>
          Live sessions <span className="muted">{sessions.length > 0 ? `(${sessions.length})` : ''}</span>
        </h2>
        <p className="muted">hub: {status === 'open' ? 'connected' : status}</p>
        {error && <p className="error">{error}</p>}
        <label className="auto-follow">
          <input type="checkbox" checked={autoFollow} onChange={(e) => onAutoFollow(e.target.checked)} /> follow the
          newest session
        </label>
        <p className="live-legend muted" data-testid="live-legend">
          <span className="dot dot-on" /> agent connected <span className="dot dot-off" /> session ended
        </p>
      </div>
      {awaited !== undefined && (
        <p className="muted" data-testid="live-awaited">
          Session <code>{awaited}</code> is not known (yet): it will show here when its agent connects.
        </p>
      )}
      {sessions.length === 0 && (
        <p className="muted">
          No live session yet. An agent streams one with <code>createLiveRecorder({'{ url }'})</code>.
        </p>
      )}
      <ul className="live-list" data-testid="live-list">
        {listed.map((s) => (
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
                title={s.connected ? 'agent connected: still streaming' : 'session ended: the agent disconnected'}
              />
              <span className="live-id" title={s.agent ?? s.id}>
                {s.agent ?? s.id}
              </span>
              {/* One line each, whatever the counts grow to: a list that updates as agents work keeps its place. */}
              {s.agent && (
                <span className="live-meta" title={s.id}>
                  {s.id}
                </span>
              )}
              <span className="live-meta">
                {s.state} · {s.events} events · {formatTime(s.lastAt)}
                {s.truncated ? ' · truncated' : ''}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {hidden > 0 && (
        <p className="muted" data-testid="live-hidden">
          and {hidden} older session{hidden === 1 ? '' : 's'}
        </p>
      )}
    </section>
  );
}
