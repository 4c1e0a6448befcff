/*
 * The proofs `hook serve` and the hook command exchange instead of the token (`docs/coding-agents.md`):
 * the command proves it holds the token with an HMAC of a fresh nonce, and the server signs its answer
 * over the nonce and the answer's bytes, so a process squatting on a stale port learns no token and
 * decides nothing. Apart from the CLI so the benchmark and the tests speak the same protocol.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The largest request `hook serve` reads; a larger event is decided in the command. */
export const HOOK_MAX_BODY = 4 * 1024 * 1024;
/** The request's fresh nonce (32 hex digits). */
export const HOOK_NONCE_HEADER = 'x-assistant-safety-hook-nonce';
/** The request's proof (HMAC of the nonce), and the answer's (HMAC of the nonce and the answer's bytes). */
export const HOOK_PROOF_HEADER = 'x-assistant-safety-hook-proof';

/** What only a holder of `token` can compute: the proof of a request (`body` undefined) or of an answer. */
export function hookProof(token: string, nonce: string, body?: Buffer): string {
  const mac = createHmac('sha256', token).update(body === undefined ? `request\n${nonce}` : `answer\n${nonce}\n`);
  if (body !== undefined) mac.update(body);
  return mac.digest('hex');
}

/** `given` is `expected`, compared in constant time. */
export function sameProof(given: string | undefined, expected: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
