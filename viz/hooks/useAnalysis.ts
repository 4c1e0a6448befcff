import { useEffect, useMemo, useState } from 'react';
import { Analyzer } from '../model/Analyzer.js';
import { yieldToPage } from '../model/yieldToPage.js';
import type { Track } from '../model/Track.js';
import type { SessionMachine } from './useMachines.js';

/** Work this long, then give the page a frame. */
const SLICE_MS = 8;

/**
 * Replays the track against the machine in slices between frames, so a
 * 100,000-event recording opens at once and its divergences appear as the
 * replay gets there. Returns the analyzer and how far it got.
 */
export function useAnalysis(
  track: Track | undefined,
  version: number,
  machine: SessionMachine | undefined,
): { analyzer: Analyzer | undefined; done: number } {
  const analyzer = useMemo(
    () => (track && machine?.ok ? new Analyzer(machine.definition, machine.machine) : undefined),
    [track?.key, machine],
  );
  // Only re-renders the page as the replay advances; the figure is the analyzer's own.
  const [, setDone] = useState(0);
  useEffect(() => {
    if (!analyzer || !track) return;
    let stopped = false;
    let shown = 0;
    const run = () => {
      if (stopped) return;
      const entries = track.entries;
      const start = performance.now();
      // Small batches so the clock is read often; stop after SLICE_MS.
      while (analyzer.done < entries.length && performance.now() - start < SLICE_MS) {
        analyzer.push(entries, Math.min(entries.length, analyzer.done + 50));
      }
      // Re-render the page a few times a second while the replay runs, not after every slice.
      const finished = analyzer.done >= entries.length;
      if (finished || performance.now() - shown > 250) {
        shown = performance.now();
        setDone(analyzer.done);
      }
      if (!finished) void yieldToPage().then(run);
    };
    // The first slice runs now: a short recording is analysed before its first paint.
    run();
    return () => {
      stopped = true;
    };
  }, [analyzer, track, version]);
  return { analyzer, done: analyzer?.done ?? 0 };
}
