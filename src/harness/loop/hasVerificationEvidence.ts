/**
 * Whether a write's result verifies the write itself: it carries
 * `{ "verification": { "ok": true } }`, as an object or as JSON text (tools
 * often return text).
 *
 * @example
 * hasVerificationEvidence({ verification: { ok: true } }); // true
 * hasVerificationEvidence('{"verification":{"ok":true}}'); // true
 * hasVerificationEvidence({ ok: true }); // false
 */
export function hasVerificationEvidence(result: unknown): boolean {
  try {
    return evidenceIn(result);
  } catch {
    return false; // a result that cannot be read (a hostile Proxy) verifies nothing
  }
}

function evidenceIn(result: unknown): boolean {
  let value = result;
  if (typeof value === 'string') {
    if (!value.trimStart().startsWith('{')) return false;
    try {
      value = JSON.parse(value);
    } catch {
      return false;
    }
  }
  const verification = ownValue(value, 'verification');
  return ownValue(verification, 'ok') === true;
}

// Own data properties only: a result cannot claim evidence through its prototype or a getter.
function ownValue(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  const desc = Object.getOwnPropertyDescriptor(value, key);
  return desc && 'value' in desc ? desc.value : undefined;
}
