/*
 * Key layout. A session's keys share a hash tag (`{id}`) so the save script
 * touches one slot:
 *
 *   <prefix>{<id>}:s   hash: rev (random, the CAS token), v (saves so far),
 *                      seq (recording entries so far), data (persist() JSON), at (last save, epoch ms)
 *   <prefix>{<id>}:x   stream: one entry per recorded call, fields entry (JSON), worker, v
 *   <prefix>{<id>}:c   hash: call id → lease expiry (Redis time, epoch ms) of each call a live
 *                      MCP gateway runs on the session
 */

export const SESSION_SUFFIX = '}:s';
export const STREAM_SUFFIX = '}:x';

export const sessionKey = (prefix: string, id: string) => `${prefix}{${id}${SESSION_SUFFIX}`;
export const streamKey = (prefix: string, id: string) => `${prefix}{${id}${STREAM_SUFFIX}`;

/** Escapes glob characters for SCAN MATCH. */
const globEscape = (s: string) => s.replace(/[*?[\]\\]/g, (c) => `\\${c}`);

/** The SCAN pattern of every session hash (or stream) under the prefix. */
export const scanPattern = (prefix: string, suffix: string) => `${globEscape(prefix)}{*${globEscape(suffix)}`;

/** The session id of a key, or undefined when the key is not one of ours. */
export function idOfKey(prefix: string, key: string, suffix: string): string | undefined {
  const head = `${prefix}{`;
  if (!key.startsWith(head) || !key.endsWith(suffix) || key.length < head.length + suffix.length) return undefined;
  return key.slice(head.length, key.length - suffix.length);
}

/** The claims of MCP gateways on a session's calls (createRedisGatewaySession). */
const CLAIMS_SUFFIX = '}:c';
export const claimsKey = (prefix: string, id: string) => `${prefix}{${id}${CLAIMS_SUFFIX}`;

/** The part of a key Redis Cluster hashes: the first `{...}` with something inside, else the whole key. */
function hashTag(key: string): string {
  const open = key.indexOf('{');
  if (open < 0) return key;
  const close = key.indexOf('}', open + 1);
  return close <= open + 1 ? key : key.slice(open + 1, close);
}

/** Whether every key of the session hashes to one slot (what a script on a Redis Cluster needs). */
export const keysShareSlot = (prefix: string, id: string): boolean =>
  hashTag(sessionKey(prefix, id)) === hashTag(streamKey(prefix, id)) &&
  hashTag(sessionKey(prefix, id)) === hashTag(claimsKey(prefix, id));
