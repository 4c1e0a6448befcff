import { sha256Hex } from './sha256.js';

/**
 * Keys the model plausibly writes for an issue the deterministic verifiers know
 * under another name. Only unambiguous synonyms belong here: a node that is
 * offline is not an unreachable guest, a failed backup-server job is not a
 * failed guest backup, so those stay as they are.
 */
export const FINDING_KEY_ALIASES: Readonly<Record<string, string>> = {
  'high-cpu': 'cpu-high',
  'high-memory': 'memory-high',
  'high-disk': 'disk-high',
};

const HEALTH_TOKENS = new Set(['health', 'healthcheck', 'unhealthy']);
const FAILURE_TOKENS = new Set(['fail', 'failed', 'failing', 'failure', 'failures', 'unhealthy']);

/**
 * A finding key in its canonical form: lower-cased, `_` and spaces made `-`,
 * anything but `[a-z0-9-]` dropped, `-` trimmed from both ends; then a key
 * made only of container-health words and a failure word becomes
 * `health-check-failed`, and a known synonym becomes its canonical key
 * ({@link FINDING_KEY_ALIASES}). Two reports of one issue so meet on one key,
 * hence on one finding id.
 *
 * @example
 * normalizeFindingKey('High_Memory'); // 'memory-high'
 * normalizeFindingKey('docker-health-check-failure'); // 'health-check-failed'
 * normalizeFindingKey('health-check-timeout'); // 'health-check-timeout' (a timeout is not a failure word)
 */
export function normalizeFindingKey(key: string): string {
  const normalized = key
    .trim()
    .toLowerCase()
    .replace(/[_ ]/g, '-')
    .replace(/[^a-z0-9-]/g, '')
    .replace(/^-+|-+$/g, '');
  const tokens = normalized.split('-').filter(Boolean);
  const aboutHealth = tokens.some((t) => HEALTH_TOKENS.has(t));
  const failed = tokens.some((t) => FAILURE_TOKENS.has(t));
  if (aboutHealth && failed) return 'health-check-failed';
  return FINDING_KEY_ALIASES[normalized] ?? normalized;
}

/**
 * The stable id of a finding: the first 8 bytes of SHA-256 over
 * `"<resourceId>:<category>:<key>"`, as 16 lowercase hex characters. The same
 * issue on the same resource always gets the same id, run after run, so a
 * report merges into the finding it repeats. Pass the key already normalised
 * ({@link normalizeFindingKey}).
 *
 * @example
 * generateFindingId('res-1', 'performance', 'high-cpu'); // 'b2f4df588c6f902d'
 */
export function generateFindingId(resourceId: string, category: string, key: string): string {
  return sha256Hex(`${resourceId}:${category}:${key}`).slice(0, 16);
}
