import { useEffect, useRef, useState, type UIEvent } from 'react';
import type { RecordingEntry } from 'assistant-safety';
import type { Divergence } from 'assistant-safety';
import { useElementHeight } from '../hooks/useElementHeight.js';
import { decisionOf, formatTime, kindOf, toolOf } from '../model/format.js';

/** Height of one row, in pixels: fixed, which is what makes the list cheap to virtualise. */
export const ROW_HEIGHT = 24;
const OVERSCAN = 8;

export interface TimelineProps {
  entries: readonly RecordingEntry[];
  /** Changes when entries were appended to the same array. */
  version: number;
  cursor: number;
  onSelect: (index: number) => void;
  divergencesAt: (index: number) => readonly Divergence[];
  /** Show the session column (a file with several sessions). */
  showSession?: boolean;
}

/**
 * Every event of the track, one row each, in order: time, kind, tool,
 * decision, state after. Only the rows in view exist in the DOM, so a
 * 100,000-event recording scrolls like a 10-event one. Keeps the cursor's
 * row in view.
 */
export function Timeline({ entries, version, cursor, onSelect, divergencesAt, showSession }: TimelineProps) {
  const viewport = useRef<HTMLDivElement>(null);
  const height = useElementHeight(viewport, 400);
  const [scrollTop, setScrollTop] = useState(0);

  useEffect(() => {
    const el = viewport.current;
    if (!el || cursor < 0) return;
    const top = cursor * ROW_HEIGHT;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + ROW_HEIGHT > el.scrollTop + height) el.scrollTop = top + ROW_HEIGHT - height;
    setScrollTop(el.scrollTop);
  }, [cursor, height, version]);

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(entries.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
  const rows = [];
  for (let i = first; i < last; i++) {
    const e = entries[i]!;
    const divergences = divergencesAt(i);
    rows.push(
      <div
        key={i}
        role="row"
        aria-selected={i === cursor}
        data-testid="timeline-row"
        data-index={i}
        className={`timeline-row decision-${e.decision}${e.call.type === 'attest' ? ' human-evidence' : ''}${e.wouldBlock ? ' would-block' : ''}${i === cursor ? ' current' : ''}${divergences.length ? ' diverged' : ''}`}
        style={{ top: i * ROW_HEIGHT, height: ROW_HEIGHT }}
        onClick={() => onSelect(i)}
      >
        <span className="col-index">{i + 1}</span>
        <span className="col-time">{formatTime(e.at)}</span>
        {showSession && (
          <span className="col-session" title={e.session}>
            {e.session.slice(0, 10)}
          </span>
        )}
        <span className="col-kind">{kindOf(e)}</span>
        <span className="col-tool" title={toolOf(e)}>
          {toolOf(e)}
        </span>
        <span className={`col-decision decision-${e.decision}`}>{decisionOf(e)}</span>
        <span className="col-after">{e.after}</span>
        {divergences.length > 0 && (
          <span
            className="col-divergence"
            data-testid="divergence"
            title={divergences
              .map((d) => `${d.field}: recorded ${JSON.stringify(d.recorded)}, now ${JSON.stringify(d.actual)}`)
              .join('\n')}
          >
            ≠ {divergences.map((d) => d.field).join(', ')}
          </span>
        )}
      </div>,
    );
  }
  return (
    <div className="timeline">
      <div className="timeline-header" role="row">
        <span className="col-index">#</span>
        <span className="col-time">time (UTC)</span>
        {showSession && <span className="col-session">session</span>}
        <span className="col-kind">call</span>
        <span className="col-tool">tool</span>
        <span className="col-decision">decision</span>
        <span className="col-after">state after</span>
      </div>
      <div
        className="timeline-viewport"
        ref={viewport}
        role="grid"
        aria-rowcount={entries.length}
        onScroll={(e: UIEvent<HTMLDivElement>) => setScrollTop(e.currentTarget.scrollTop)}
      >
        <div className="timeline-spacer" style={{ height: entries.length * ROW_HEIGHT }}>
          {rows}
        </div>
      </div>
    </div>
  );
}
