import { SPEEDS, type PlaybackEvent } from '../machines/playbackMachine.js';
import { formatCount } from '../model/format.js';

export interface PlaybackControlsProps {
  cursor: number;
  length: number;
  playing: boolean;
  speed: number;
  send: (event: PlaybackEvent) => void;
}

/** Step, play or pause at a speed, scrub. The arrow keys do the same (see App). */
export function PlaybackControls({ cursor, length, playing, speed, send }: PlaybackControlsProps) {
  const empty = length === 0;
  return (
    <div className="playback">
      <button
        type="button"
        onClick={() => send({ type: 'FIRST' })}
        disabled={empty || cursor <= 0}
        title="first (Home)"
      >
        |◀
      </button>
      <button
        type="button"
        data-testid="step-back"
        onClick={() => send({ type: 'STEP_BACK' })}
        disabled={empty || cursor <= 0}
        title="step back (←)"
      >
        ◀ step
      </button>
      <button
        type="button"
        className="play"
        onClick={() => send({ type: 'TOGGLE' })}
        disabled={empty || (!playing && cursor >= length - 1)}
        title="play / pause (space)"
      >
        {playing ? '❚❚ pause' : '▶ play'}
      </button>
      <button
        type="button"
        data-testid="step-forward"
        onClick={() => send({ type: 'STEP_FORWARD' })}
        disabled={empty || cursor >= length - 1}
        title="step forward (→)"
      >
        step ▶
      </button>
      <button
        type="button"
        onClick={() => send({ type: 'LAST' })}
        disabled={empty || cursor >= length - 1}
        title="last (End)"
      >
        ▶|
      </button>
      <label className="speed">
        speed
        <select value={speed} onChange={(e) => send({ type: 'SET_SPEED', speed: Number(e.target.value) })}>
          {SPEEDS.map((s) => (
            <option key={s} value={s}>
              {s}/s
            </option>
          ))}
        </select>
      </label>
      <input
        className="scrub"
        type="range"
        aria-label="scrub"
        min={0}
        max={Math.max(0, length - 1)}
        value={Math.max(0, cursor)}
        disabled={empty}
        onChange={(e) => send({ type: 'SEEK', index: Number(e.target.value) })}
      />
      <span className="position">{empty ? '0 / 0' : `${formatCount(cursor + 1)} / ${formatCount(length)}`}</span>
    </div>
  );
}
