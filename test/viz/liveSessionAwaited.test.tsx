// @vitest-environment jsdom
import { act, cleanup, configure, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LiveSessionInfo } from 'assistant-safety/live';
import { safetyMachineDefinition } from '../../src/index.js';
import { App } from '../../viz/App.js';

/*
 * A link to a live session the hub does not know (`?mode=live&session=nope`): the page said
 * nothing, an empty list and "Nothing open". It now says the session is not known (yet) and that it
 * will show when its agent connects; once the hub lists it, the page follows it.
 */

configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A hub socket in the page: opens at once, and what the page sends is kept. */
class FakeHubSocket {
  static readonly OPEN = 1;
  static last: FakeHubSocket | undefined;
  readyState = 0;
  sent: unknown[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor() {
    FakeHubSocket.last = this;
    queueMicrotask(() => {
      this.readyState = FakeHubSocket.OPEN;
      this.onopen?.();
    });
  }
  send(text: string) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.readyState = 3;
  }
  /** The hub lists these sessions. */
  list(sessions: LiveSessionInfo[]) {
    this.onmessage?.({ data: JSON.stringify({ type: 'sessions', sessions }) });
  }
}

const info = (id: string, agent: string): LiveSessionInfo => ({
  id,
  agent,
  events: 3,
  state: 'READING',
  lastAt: Date.UTC(2026, 0, 12, 9, 30),
  connected: true,
  truncated: false,
});

function server() {
  return vi.fn(async (path: string) => {
    const body =
      path === '/api/machines'
        ? { machines: [{ file: 'assistant-safety.json', json: safetyMachineDefinition }] }
        : { recordings: [] };
    return new Response(JSON.stringify(body), { status: 200 });
  });
}

describe('a link to a live session the hub does not know', () => {
  it('should say the session is not known yet and will show when its agent connects, then follow it', async () => {
    vi.stubGlobal('fetch', server());
    vi.stubGlobal('WebSocket', FakeHubSocket);
    render(<App fromServer={true} initialMode="live" initialSession="nope" />);
    await waitFor(() => expect(FakeHubSocket.last?.sent).toContainEqual({ type: 'hello', role: 'viewer' }));
    const hub = FakeHubSocket.last!;
    act(() => hub.list([info('other', 'demo: another session')]));

    const awaited = await screen.findByTestId('live-awaited');
    expect(awaited.textContent).toBe('Session nope is not known (yet): it will show here when its agent connects.');
    expect(screen.getByText('waiting for session nope')).toBeTruthy();
    // The session it names is not followed in its stead.
    expect(hub.sent).not.toContainEqual(expect.objectContaining({ type: 'follow' }));

    // Its agent connects: the hub lists it, the page follows it and the message goes.
    act(() => hub.list([info('other', 'demo: another session'), info('nope', 'late agent')]));
    await waitFor(() => expect(hub.sent).toContainEqual({ type: 'follow', session: 'nope' }));
    expect(screen.queryByTestId('live-awaited')).toBeNull();
    expect(screen.queryByText('waiting for session nope')).toBeNull();
  });

  it('should say nothing of a session when none was asked for', async () => {
    vi.stubGlobal('fetch', server());
    vi.stubGlobal('WebSocket', FakeHubSocket);
    render(<App fromServer={true} initialMode="live" />);
    await waitFor(() => expect(FakeHubSocket.last?.sent).toContainEqual({ type: 'hello', role: 'viewer' }));
    act(() => FakeHubSocket.last!.list([]));
    await screen.findByText(/No live session yet/);
    expect(screen.queryByTestId('live-awaited')).toBeNull();
  });
});
