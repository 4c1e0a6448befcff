import { createSafetySession } from 'assistant-safety';
import { describe, expect, it } from 'vitest';

/*
 * A bad element of a list argument is named by its index, with what it was. Before: the error named
 * the list (`call.targets`) and said `got object` of a target that was a string too long.
 */
describe('an input error inside a list', () => {
  const session = createSafetySession({ targets: 'bind' });
  const begin = (targets: unknown[]) => () =>
    session.beginToolCall({ id: 'w', kind: 'write', tool: 'send_money', targets: targets as string[] });

  it('names the element and its length', () => {
    expect(begin(['vm:1', 'x'.repeat(2000)])).toThrow(
      'beginToolCall: call.targets[1]: Too big: expected string to have <=1024 characters, got a string of 2000 characters',
    );
    expect(begin([''])).toThrow(
      'beginToolCall: call.targets[0]: Too small: expected string to have >=1 characters, got ""',
    );
  });

  it('names the list by its length when the list is too long', () => {
    expect(begin(Array.from({ length: 65 }, (_, i) => `vm:${i}`))).toThrow(
      'beginToolCall: call.targets: Too big: expected array to have <=64 items, got 65 items',
    );
  });

  it("names a discovered target at a call's end the same way", () => {
    session.beginToolCall({ id: 'r', kind: 'read', tool: 'list' });
    expect(() => session.endToolCall({ id: 'r', ok: true, discovered: ['ok', 'y'.repeat(1025)] })).toThrow(
      /^endToolCall: result\.discovered\[1\]: Too big: .*got a string of 1025 characters$/,
    );
  });
});
