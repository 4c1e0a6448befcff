import { useCallback, useEffect, useState } from 'react';
import {
  createInsights,
  LIVE_INSIGHTS_PATH,
  LiveInsights,
  type InsightsDetails,
  type InsightsSummary,
} from 'assistant-safety/insights';
import { RecordingList } from 'assistant-safety/live';
import { recordingKindOf } from '../model/recordingKindOf.js';
import { apiFetch } from '../model/api.js';
import { aggregateRecordingText } from './aggregateRecordingText.js';

/*
 * The aggregates of every recording in the server's folder, computed in the
 * page with the same module as `assistant-safety stats`, or of the live
 * sessions (computed by the server with the same module), with the
 * references behind each aggregate (which file or live session, and which
 * step) for the charts' links.
 */

/** What Insights aggregates: the recordings folder, or the sessions the live hub holds. */
export type InsightsSource = 'recordings' | 'live';

export type InsightsState =
  | { status: 'idle' }
  | { status: 'loading'; done: number; of: number }
  | { status: 'ready'; summary: InsightsSummary; details: InsightsDetails; files: string[]; skipped: string[] }
  | { status: 'error'; message: string };

/** Loads and aggregates `source` while `active`; `reload` starts over. */
export function useInsights(active: boolean, fromServer: boolean, source: InsightsSource) {
  const [state, setState] = useState<InsightsState>({ status: 'idle' });
  const [generation, setGeneration] = useState(0);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);

  useEffect(() => {
    if (!active || !fromServer) return;
    const controller = new AbortController();
    const { signal } = controller;
    (async () => {
      if (source === 'live') {
        setState({ status: 'loading', done: 0, of: 1 });
        const live = LiveInsights.safeParse(await (await apiFetch(LIVE_INSIGHTS_PATH, signal)).json());
        if (!live.success) throw new Error('the server sent live insights the page does not understand');
        if (!signal.aborted) setState({ status: 'ready', ...live.data, files: [], skipped: [] });
        return;
      }
      const listed = RecordingList.safeParse(await (await apiFetch('/api/recordings', signal)).json());
      if (!listed.success) throw new Error('the server sent a recording list the page does not understand');
      // The sessions' recordings: a Patrol run's recording holds no tool calls of a session.
      const names = listed.data.recordings.map((r) => r.name).filter((n) => recordingKindOf(n) === 'safety');
      const insights = createInsights({ details: true });
      const skipped: string[] = [];
      setState({ status: 'loading', done: 0, of: names.length });
      for (const [i, name] of names.entries()) {
        const text = await (await apiFetch(`/api/recordings/${encodeURIComponent(name)}`, signal)).text();
        // A slice of entries at a time, the page answering in between (a file can hold 440,000 events).
        const added = await aggregateRecordingText(insights, text, name, { signal });
        // A file with a bad line is left out whole (as `stats` refuses it), and named.
        if (added.status === 'refused') skipped.push(`${name}: line ${added.line}`);
        if (signal.aborted) return;
        setState({ status: 'loading', done: i + 1, of: names.length });
      }
      setState({ status: 'ready', summary: insights.summary(), details: insights.details(), files: names, skipped });
    })().catch((e: unknown) => {
      if (!signal.aborted) setState({ status: 'error', message: (e as Error).message });
    });
    return () => controller.abort();
  }, [active, fromServer, generation, source]);

  return { state, reload };
}
