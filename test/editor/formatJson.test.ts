import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { formatJson } from 'assistant-safety/editor';

// What saving did before: Prettier over compact JSON, with the repository's options.
const prettierJson = async (value: unknown) =>
  prettier.format(JSON.stringify(value), { parser: 'json', printWidth: 120, singleQuote: true, trailingComma: 'all' });

const key = fc.oneof(
  fc.constantFrom('type', 'params', 'target', 'on', 'guard', 'x', 'y'),
  fc.string({ maxLength: 30 }),
);
const scalar = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);
const { json } = fc.letrec((tie) => ({
  json: fc.oneof({ depthSize: 'small' }, scalar, tie('object'), tie('array')),
  object: fc.dictionary(key, tie('json'), { maxKeys: 6 }),
  // Arrays of numbers alone are filled by Prettier; machine files hold none (see formatJson).
  array: fc.array(tie('json'), { maxLength: 5 }).filter((a) => a.length < 2 || !a.every((x) => typeof x === 'number')),
}));

describe('formatJson', () => {
  it('should lay out every shipped machine and layout file byte for byte as Prettier does', async () => {
    for (const name of readdirSync('machines').filter((f) => f.endsWith('.json'))) {
      const value = JSON.parse(readFileSync(`machines/${name}`, 'utf8'));
      expect(formatJson(value), name).toBe(await prettierJson(value));
    }
  });

  it('should agree with Prettier on random JSON (300 values)', async () => {
    await fc.assert(
      fc.asyncProperty(json, async (value) => {
        expect(formatJson(value)).toBe(await prettierJson(value));
      }),
      { numRuns: 300 },
    );
  });
});
