import { useCallback, useEffect, useRef, useState } from 'react';
import { FSMBlockedError } from 'assistant-safety';
import { createMemoryRecorder, type MemoryRecorder } from 'assistant-safety';
import type { RecordedCall } from 'assistant-safety';
import { applyCall } from 'assistant-safety';
import { createSafetySession, SafetyInputError, type SafetySession } from 'assistant-safety';
import { newTrackKey, type TrackStore } from '../model/Track.js';
import type { SessionMachine } from './useMachines.js';

/**
 * A real session running in the page, on the selected machine, recorded in
 * memory: every control is one API call, and the recording is the track.
 */
export function usePlayground(enabled: boolean, machine: SessionMachine | undefined, store: TrackStore) {
  const session = useRef<SafetySession | undefined>(undefined);
  const recorder = useRef<MemoryRecorder | undefined>(undefined);
  const [, setTick] = useState(0);
  const [message, setMessage] = useState<string | undefined>(undefined);
  const nextId = useRef(1);

  const start = useCallback(() => {
    if (!machine?.ok) return;
    const rec = createMemoryRecorder();
    const key = newTrackKey('playground');
    const id = `playground-${Date.now().toString(36)}`;
    store.replace({ key, source: 'playground', title: `playground ${id}`, entries: [] });
    const s = createSafetySession({
      machine: machine.machine,
      id,
      recorder: {
        record(entry) {
          rec.record(entry);
          // Another mode may have replaced the track since: then this session is no longer shown.
          if (store.getSnapshot()?.key === key) store.append([entry]);
        },
      },
    });
    recorder.current = rec;
    session.current = s;
    nextId.current = 1;
    setTick((t) => t + 1);
    setMessage(undefined);
  }, [machine, store]);

  useEffect(() => {
    if (enabled) start();
  }, [enabled, start]);

  /** Performs one API call; returns what the session said. */
  const call = useCallback((c: RecordedCall) => {
    const s = session.current;
    if (!s) return;
    try {
      const outcome = applyCall(s, c);
      setMessage(
        outcome.decision === 'blocked'
          ? `${c.type}: blocked (${outcome.reasonCode})`
          : `${c.type}: ${outcome.decision}${outcome.result ? ` → ${outcome.result}` : ''}`,
      );
      // An ignored end changes nothing, so the session tells no subscriber; the recorder has the entry.
      setTick((t) => t + 1);
    } catch (e) {
      setMessage(e instanceof SafetyInputError || e instanceof FSMBlockedError ? e.message : String(e));
    }
  }, []);

  const newCallId = useCallback(() => `c${nextId.current++}`, []);

  /** The recording so far, as JSON Lines. */
  const toJSONL = useCallback(() => recorder.current?.toJSONL() ?? '', []);

  return { session: session.current, call, newCallId, restart: start, toJSONL, message };
}
