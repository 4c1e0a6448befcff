import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRecorder, createSafetySession } from '../../src/index.js';
import { createLiveRecorder } from '../../src/node/createLiveRecorder.js';
import { startTestServer, until } from './helpers.js';

/*
 * A wrong token never heals, so a live recorder says so once on the console even when no onError
 * was given; before, the app stayed empty without a word. An `onError` takes over the saying.
 */
let server: Awaited<ReturnType<typeof startTestServer>> | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

describe('a live recorder with a wrong token', () => {
  it('should say once on the console that the token was refused, and keep the local recording', async () => {
    server = await startTestServer();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const local = createMemoryRecorder();
    const url = new URL(server.url);
    url.searchParams.set('token', 'not-the-token');
    const live = createLiveRecorder({ url: url.href, fallback: local, retryMs: 10, maxRetryMs: 20 });
    createSafetySession({ id: 'w', recorder: live }).beginToolCall({ id: 'r', kind: 'read', tool: 'get_vm' });
    await until(() => warn.mock.calls.length > 0);
    // Several refused retries later, still said once.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await live.close({ timeoutMs: 10 });
    expect(warn.mock.calls).toEqual([
      [
        `assistant-safety: createLiveRecorder: ${url.host} refused the connection (HTTP 403): use the URL \`assistant-safety serve\` printed, token included. Entries go only to the fallback.`,
      ],
    ]);
    expect(live.connected).toBe(false);
    expect(local.entries.length).toBeGreaterThan(0);
  });

  it('should leave the saying to onError when one is given', async () => {
    server = await startTestServer();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const errors: string[] = [];
    const url = new URL(server.url);
    url.searchParams.set('token', 'not-the-token');
    const live = createLiveRecorder({ url: url.href, onError: (e) => errors.push(e.message) });
    await until(() => errors.length > 0);
    await live.close({ timeoutMs: 10 });
    expect(errors[0]).toBe('live server refused the connection: HTTP 403');
    expect(warn).not.toHaveBeenCalled();
  });
});
