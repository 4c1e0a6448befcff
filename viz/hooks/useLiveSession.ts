import { useCallback, useEffect, useRef, useState } from 'react';
import { LIVE_PATH, ServerMessage, type LiveSessionInfo } from 'assistant-safety/live';
import type { RecordingEntry } from 'assistant-safety';
import { liveSocketProtocols, liveSocketUrl } from '../model/api.js';
import { newTrackKey, type TrackStore } from '../model/Track.js';

export type LiveStatus = 'connecting' | 'open' | 'closed';

/**
 * The hub's live sessions, and the one followed: its entries go into the
 * track store as they arrive. Reconnects when the socket drops (and follows
 * the same session again).
 */
export function useLiveSession(enabled: boolean, store: TrackStore) {
  const [status, setStatus] = useState<LiveStatus>('closed');
  const [sessions, setSessions] = useState<LiveSessionInfo[]>([]);
  const [followed, setFollowed] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const socket = useRef<WebSocket | undefined>(undefined);
  const followedRef = useRef<string | undefined>(undefined);

  useEffect(() => {
    if (!enabled) return;
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    // A busy agent sends many small messages: show them once a frame, not once a message.
    let pending: RecordingEntry[] = [];
    let frame: number | undefined;
    const flush = () => {
      frame = undefined;
      const batch = pending;
      pending = [];
      store.append(batch);
    };
    const connect = () => {
      setStatus('connecting');
      const ws = new WebSocket(liveSocketUrl(LIVE_PATH), liveSocketProtocols());
      socket.current = ws;
      ws.onopen = () => {
        setStatus('open');
        setError(undefined);
        ws.send(JSON.stringify({ type: 'hello', role: 'viewer' }));
        if (followedRef.current) ws.send(JSON.stringify({ type: 'follow', session: followedRef.current }));
      };
      ws.onmessage = (event) => {
        let json: unknown;
        try {
          json = JSON.parse(String(event.data));
        } catch {
          return setError('the server sent a message that is not JSON');
        }
        const parsed = ServerMessage.safeParse(json);
        if (!parsed.success)
          return setError(`the server sent an unexpected message: ${parsed.error.issues[0]?.message}`);
        const message = parsed.data;
        if (message.type === 'sessions') setSessions(message.sessions);
        else if (message.type === 'error') setError(message.message);
        else if (message.type === 'session-entries' && message.session === followedRef.current) {
          if (message.reset) {
            pending = [];
            store.replace({
              key: newTrackKey('live'),
              source: 'live',
              title: `live session ${message.session}`,
              entries: message.entries,
            });
          } else {
            pending.push(...message.entries);
            frame ??= requestAnimationFrame(flush);
          }
        }
      };
      ws.onclose = () => {
        setStatus('closed');
        if (!stopped) retry = setTimeout(connect, 1000);
      };
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      if (frame !== undefined) cancelAnimationFrame(frame);
      socket.current?.close();
      socket.current = undefined;
    };
  }, [enabled, store]);

  const follow = useCallback((session: string) => {
    followedRef.current = session;
    setFollowed(session);
    const ws = socket.current;
    if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'follow', session }));
  }, []);

  return { status, sessions, followed, follow, error };
}
