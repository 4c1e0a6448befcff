import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './helpers.js';

/*
 * The page a browser gets without the token tells the person what to do
 * whichever way they started the server (`npm start` in a clone, or
 * `assistant-safety serve`): open the URL it printed, token included.
 */

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('the page without a token', () => {
  it('should answer 401 naming both ways to start the server and the printed URL', async () => {
    const response = await fetch(`${server.origin}/`);
    expect(response.status).toBe(401);
    const text = await response.text();
    expect(text).toMatch(/URL this server printed when it started/);
    expect(text).toContain('`npm start`');
    expect(text).toContain('`assistant-safety serve`');
    expect(text).toContain('?token=');
  });
});
