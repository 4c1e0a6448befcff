import { LIVE_PROTOCOL, TOKEN_HEADER, TOKEN_PROTOCOL_PREFIX } from 'assistant-safety/live';

/*
 * The page's link to the server it came from: the token from the URL it was
 * opened with, sent on every request (a header) and socket (a subprotocol).
 * Never a cookie: a cookie would go to every other server on this host.
 */

/** The session token from the page's URL (`?token=`), or '' when opened without a server. */
export function pageToken(): string {
  if (typeof location === 'undefined') return '';
  return new URLSearchParams(location.search).get('token') ?? '';
}

/** GET a JSON or text resource of the server, with the token. */
export async function apiFetch(path: string, signal?: AbortSignal): Promise<Response> {
  const response = await fetch(path, { headers: { [TOKEN_HEADER]: pageToken() }, ...(signal && { signal }) });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text().catch(() => '')}`.trim());
  return response;
}

/** The hub's WebSocket URL for this page (the token goes in {@link liveSocketProtocols}, not the URL). */
export function liveSocketUrl(path: string): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${path}`;
}

/** The subprotocols the page's socket offers: the hub's, and the token (a browser socket cannot set a header). */
export function liveSocketProtocols(): string[] {
  return [LIVE_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${pageToken()}`];
}
