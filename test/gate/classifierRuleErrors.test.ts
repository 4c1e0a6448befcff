import { ClassifierRulesError, createClassifier } from 'assistant-safety';
import { describe, expect, it } from 'vitest';

/** Issue 18 item 6: a rule error lists the valid values. */
describe('classifier rule errors', () => {
  it('should list the valid kinds for an unknown kind', () => {
    const make = () => createClassifier({ tools: { x: 'reed' } });
    expect(make).toThrow(ClassifierRulesError);
    expect(make).toThrow(/tools\.x: .*resolve, read, write, user_input/);
    expect(make).toThrow(/"reed"/);
  });

  it('should list the valid kinds for an unknown kind inside an argument rule', () => {
    const make = () => createClassifier({ tools: { x: { arg: 'action', values: { get: 'reed' }, default: 'read' } } });
    expect(make).toThrow(/tools\.x\.values\.get: .*resolve.*read.*write.*user_input/);
  });

  it('should name the field of a malformed argument rule', () => {
    const make = () => createClassifier({ tools: { x: { arg: 'action', values: {} } } });
    expect(make).toThrow(/tools\.x\.default/);
  });

  // Before: the error named the field the misspelling left missing (`tools.vm.default: ... got undefined`)
  // and never the misspelt one.
  it.each([
    [
      { arg: 'action', values: { status: 'read' }, defualt: 'write' },
      /tools\.vm: Unrecognized key: "defualt" \(did you mean default\?\)/,
    ],
    [
      { arg: 'action', value: { status: 'read' }, default: 'write' },
      /tools\.vm: Unrecognized key: "value" \(did you mean values\?\)/,
    ],
  ])('should name a misspelt field of an argument rule before the field it left out', (rule, message) => {
    expect(() => createClassifier({ tools: { vm: rule } })).toThrow(message);
  });
});
