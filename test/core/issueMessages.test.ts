import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import {
  ClassifierRules,
  MachineDefinition,
  PersistedSession,
  RecordedCall,
  RecordingEntry,
  SafetyContext,
  ToolCall,
  ToolKind,
} from 'assistant-safety';
import { safeParseInput } from '../../src/core/Issue.js';

const schemas = {
  ClassifierRules,
  MachineDefinition,
  PersistedSession,
  RecordedCall,
  RecordingEntry,
  SafetyContext,
  ToolCall,
  ToolKind,
};

/** The messages zod's own English locale gives for the same input. */
const zodEnglish = (schema: z.core.$ZodType, input: unknown) => {
  const r = z.safeParse(schema, input, { error: en().localeError });
  return r.success ? [] : r.error.issues.map((i) => [i.path, i.message]);
};
// Ours add the key meant to an unknown one when one is close ("(did you mean targets?)"): compared without it.
const GUESS = / \(did you mean [^)]+\?\)$/;
const ours = (schema: z.core.$ZodType, input: unknown) => {
  const r = safeParseInput(schema, input);
  return r.success
    ? []
    : r.error.issues.map((i) => [i.path, i.code === 'unrecognized_keys' ? i.message.replace(GUESS, '') : i.message]);
};

// Values near each schema's shape, so that deep issues (too small, unknown keys, bad enums) come up, not only "expected object".
const near = fc.oneof(
  fc.anything(),
  fc.record(
    {
      type: fc.constantFrom('beginToolCall', 'endToolCall', 'x'),
      id: fc.oneof(fc.string(), fc.integer()),
      kind: fc.constantFrom('read', 'reed', 7),
      tool: fc.string(),
      ok: fc.anything(),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      tools: fc.dictionary(
        fc.string(),
        fc.oneof(
          fc.constantFrom('read', 'reed'),
          fc.record({ arg: fc.string(), values: fc.anything(), default: fc.anything() }),
        ),
      ),
      extra: fc.anything(),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      v: fc.constantFrom(1, 2),
      session: fc.string(),
      seq: fc.oneof(fc.integer(), fc.double()),
      at: fc.anything(),
      call: fc.anything(),
      decision: fc.string(),
      state: fc.string(),
    },
    { requiredKeys: [] },
  ),
  fc.record({ id: fc.anything(), name: fc.anything(), args: fc.anything() }, { requiredKeys: [] }),
);

describe("the core's English issue messages", () => {
  it('should name the key meant beside an unknown key, when one is close, and only then', () => {
    const wrong = (rule: object) => {
      const r = safeParseInput(ClassifierRules, { tools: { vm: { kind: 'write', ...rule } } });
      return r.success ? [] : r.error.issues.filter((i) => i.code === 'unrecognized_keys').map((i) => i.message);
    };
    expect(wrong({ tagrets: ['vm_id'] })).toEqual(['Unrecognized key: "tagrets" (did you mean targets?)']);
    expect(wrong({ zzzz: 1 })).toEqual(['Unrecognized key: "zzzz"']);
  });

  for (const [name, schema] of Object.entries(schemas)) {
    it(`should word every issue of ${name} as zod's English locale does`, () => {
      fc.assert(
        fc.property(near, (input) => {
          expect(ours(schema, input)).toEqual(zodEnglish(schema, input));
        }),
        { numRuns: 300 },
      );
    });
  }
});
