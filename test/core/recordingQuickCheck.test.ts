import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BlockReasonCode,
  createMemoryRecorder,
  createSafetySession,
  Decision,
  LoopBlockCode,
  parseRecordingLine,
  RecordingEntry,
  restoreSafetySession,
  SessionState,
  ToolKind,
} from 'assistant-safety';
import { recordTemplate } from '../../bench/generateRecording.js';
import { formatPath, safeParseInput } from '../../src/core/Issue.js';
import { quickCheckEntry } from '../../src/safety/quickCheckEntry.js';
import { manualClock } from './clock.js';
import { driveEverything } from './fixtures.js';

/*
 * parseRecordingLine skips zod for entries a quick check passes. These
 * properties hold it to zod: over valid lines mutated at random (values
 * swapped, keys dropped or added, text cut), every line gets exactly the
 * result JSON.parse + safeParseInput(RecordingEntry) alone would give, error
 * message included, and the quick check never passes what zod rejects or
 * would change.
 */

/** parseRecordingLine as it was before the quick check: JSON.parse, then zod. */
function reference(text: string) {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, json: false, message: `not JSON (${(e as Error).message})` };
  }
  const parsed = safeParseInput(RecordingEntry, value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({
      code: i.code,
      path: i.path.map((k) => (typeof k === 'number' ? k : String(k))),
      message: i.message,
    }));
    return {
      ok: false,
      json: true,
      message: issues.map((i) => `${formatPath(i.path) || '(entry)'}: ${i.message}`).join('; '),
      issues,
    };
  }
  return { ok: true, entry: parsed.data };
}

/** Valid entries of every call kind, restores and a non-default config included. */
function validEntries(): RecordingEntry[] {
  const clock = manualClock(1_700_000_000_000);
  const recorder = createMemoryRecorder();
  const s = createSafetySession({ recorder, now: clock.now, id: 'q', failedWriteRequiresVerification: true });
  driveEverything(s, clock);
  s.beginToolCall({ id: 'w', kind: 'write', tool: 'x' });
  s.endToolCall({ id: 'w', ok: false, verified: true });
  s.trackPendingRecovery('E', 't');
  restoreSafetySession(s.persist(), { recorder, now: clock.now }).onToolSuccess('read', 'r');
  return [...recorder.entries, ...recordTemplate(600, 3, 17)];
}

/**
 * A value as text that tells apart everything JSON data can differ in: sorted
 * keys, -0, undefined. (Vitest's strict equality would also compare own
 * `constructor` keys, which mutated entries have, as if they were classes.)
 */
function canonical(value: unknown): string {
  const walk = (v: unknown): unknown => {
    if (Object.is(v, -0)) return '(-0)';
    if (v === undefined) return '(undefined)';
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v !== 'object' || v === null) return v;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort())
      Object.defineProperty(out, k, { value: walk((v as Json)[k]), enumerable: true });
    return out;
  };
  return JSON.stringify(walk(value));
}

const VALID = validEntries();
const INF = '__infinity__';

/** Values a mutation may put anywhere: the schema's own vocabulary, edge numbers, and arbitrary JSON. */
const someValue = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -0,
    -1,
    1.5,
    2 ** 53,
    2 ** 53 - 1,
    1e300,
    INF,
    '',
    'x',
    [],
    {},
    { id: 'w', tool: 't', startedAt: 1 },
    ...ToolKind.options,
    ...SessionState.options,
    ...Decision.options,
    ...BlockReasonCode.options,
    ...LoopBlockCode.options,
    'recordLoopBlock',
    'create',
    'restore',
    'beginToolCall',
    'endToolCall',
    'canFinalAnswer',
    'checkRecoverySuccess',
  ),
  fc.jsonValue({ maxDepth: 2 }),
);
const someKey = fc.oneof(
  fc.constantFrom('v', 'type', 'kind', 'tool', 'id', 'ok', 'verified', 'reasonCode', 'result', 'note', 'inFlightWrite'),
  fc.constantFrom('__proto__', 'constructor', 'toString'),
  fc.string({ maxLength: 4 }),
);

type Json = Record<string, unknown>;

/** Every object inside a value (the entry itself, call, context, ...). */
function objectsIn(value: unknown, out: Json[] = []): Json[] {
  if (typeof value === 'object' && value !== null) {
    if (!Array.isArray(value)) out.push(value as Json);
    for (const v of Object.values(value)) objectsIn(v, out);
  }
  return out;
}

const mutation = fc.record({
  kind: fc.constantFrom('set', 'delete', 'add'),
  target: fc.nat(),
  key: fc.nat(),
  newKey: someKey,
  value: someValue,
});

function mutate(
  entry: RecordingEntry,
  mutations: Array<typeof mutation extends fc.Arbitrary<infer M> ? M : never>,
): string {
  const value = structuredClone(entry) as unknown as Json;
  for (const m of mutations) {
    const objects = objectsIn(value);
    const target = objects[m.target % objects.length]!;
    const keys = Object.keys(target);
    const key = keys.length ? keys[m.key % keys.length]! : m.newKey;
    if (m.kind === 'delete') delete target[key];
    else if (m.kind === 'set') target[key] = structuredClone(m.value);
    else
      Object.defineProperty(target, m.newKey, {
        value: structuredClone(m.value),
        enumerable: true,
        configurable: true,
        writable: true,
      });
  }
  return JSON.stringify(value).replaceAll(`"${INF}"`, '1e400');
}

describe('the quick check of recording lines', () => {
  it('should pass every entry a recorder writes, other than session starts', () => {
    for (const entry of VALID) {
      const line = JSON.parse(JSON.stringify(entry));
      const starts = entry.call.type === 'create' || entry.call.type === 'restore';
      expect(quickCheckEntry(line), entry.call.type).toBe(!starts);
    }
    expect(new Set(VALID.map((e) => e.call.type)).size).toBe(14);
  });

  it('should give every mutated line exactly the result of JSON.parse and zod alone', () => {
    let passed = 0;
    fc.assert(
      fc.property(fc.constantFrom(...VALID), fc.array(mutation, { minLength: 1, maxLength: 3 }), (entry, mutations) => {
        const text = mutate(entry, mutations);
        expect(canonical(parseRecordingLine(text))).toBe(canonical(reference(text)));
        const value: unknown = JSON.parse(text);
        if (quickCheckEntry(value)) {
          passed++;
          const zod = RecordingEntry.safeParse(value);
          expect(zod.success).toBe(true);
          expect(canonical(value)).toBe(canonical(zod.data));
        }
      }),
      { numRuns: 3000 },
    );
    expect(passed, 'some mutations keep the entry valid (same-kind values)').toBeGreaterThan(0);
  });

  it('should give every line cut or edited as text exactly the result of JSON.parse and zod alone', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...VALID),
        fc.nat(),
        fc.constantFrom('cut', 'drop', 'insert'),
        fc.constantFrom('', ' ', '"', ',', '}', '0', '-', 'e', '\\', 'é'),
        (entry, at, edit, char) => {
          const line = JSON.stringify(entry);
          const i = at % line.length;
          const text =
            edit === 'cut'
              ? line.slice(0, i)
              : edit === 'drop'
                ? line.slice(0, i) + line.slice(i + 1)
                : line.slice(0, i) + char + line.slice(i);
          expect(canonical(parseRecordingLine(text))).toBe(canonical(reference(text)));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
