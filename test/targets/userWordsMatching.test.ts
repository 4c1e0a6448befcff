import { describe, expect, it } from 'vitest';
import { createClassifier, createSafetySession, normaliseWords, userWordsFor } from 'assistant-safety';

/*
 * The matching rule of docs/targets.md ("How the user's words match"), case by case: what the user
 * typed against the target a write names.
 */

const said = (text: string) => [normaliseWords(text)];

describe("the user's words validate a target", () => {
  it.each([
    ['case', 'Mail Bob@Example.COM please', 'email:bob@example.com'],
    ['white space', 'pay\n\tGB29NWBK60161331926819   now', 'iban:GB29NWBK60161331926819'],
    ['quotes', 'send it to "bob@example.com"', 'email:bob@example.com'],
    ['typographic quotes', 'send it to “bob@example.com”', 'email:bob@example.com'],
    ['trailing punctuation', 'send it to bob@example.com.', 'email:bob@example.com'],
    ['an IBAN in groups', 'Pay GB29 NWBK 6016 1331 9268 19 today', 'iban:GB29NWBK60161331926819'],
    ['an IBAN with hyphens', 'Pay GB29-NWBK-6016-1331-9268-19', 'iban:GB29NWBK60161331926819'],
    ['a number with thousands separators', 'move 1,000 units', 'qty:1000'],
    ['a channel with its #', 'post a summary to #random.', 'channel:random'],
    ['punctuation, then more words', 'write to bob@example.com, then stop', 'email:bob@example.com'],
    ['a closing bracket after punctuation', '(send it to bob@example.com.)', 'email:bob@example.com'],
    ['the key itself', 'restart vm:101 now', 'vm:101'],
    ['an IBAN in groups, then punctuation', 'Pay GB29 NWBK 6016 1331 9268 19, thanks', 'iban:GB29NWBK60161331926819'],
    [
      'an IBAN pasted with zero-width spaces',
      'Pay GB29\u200bNWBK6016\u200b1331926819 now',
      'iban:GB29NWBK60161331926819',
    ],
    [
      'an IBAN pasted with a zero-width space after it',
      'Pay GB29NWBK60161331926819\u200b now',
      'iban:GB29NWBK60161331926819',
    ],
    ['an IBAN in full-width letters', 'Pay ＧＢ29NWBK60161331926819 now', 'iban:GB29NWBK60161331926819'],
  ])('%s', (_rule, text, target) => {
    expect(userWordsFor(target, said(text))).toBeDefined();
  });

  it.each([
    ['inside a longer word', 'mail bob@example.com.evil', 'email:bob@example.com'],
    ['the domain of an address', 'mail bob@example.com', 'host:example.com'],
    ['one character', 'option a please', 'choice:a'],
    ['nothing said', '', 'email:bob@example.com'],
    ['a part of a number', 'pay 21000 EUR', 'qty:1000'],
    // Before: a long identifier was looked for in the text with every space and hyphen removed and no
    // word boundary, so a part of what the user typed (or two numbers run together) validated.
    ['the start of an IBAN typed in groups', 'Pay GB29 NWBK 6016 1331 9268 19 now', 'iban:GB29NWBK6016133192'],
    ['the middle of an IBAN', 'Pay GB29NWBK60161331926819 now', 'iban:NWBK60161331926819'],
    ['an IBAN inside a longer one', 'Pay GB29NWBK601613319268190 now', 'iban:GB29NWBK60161331926819'],
    ['an IBAN after other letters', 'Pay XGB29NWBK60161331926819 now', 'iban:GB29NWBK60161331926819'],
    ['the end of one number and the start of the next', 'accounts 12345678 87654321', 'acct:78876543'],
    // A value with an invisible character is not what the user saw, whatever the text holds.
    ['a target with a zero-width space', 'Pay GB29NWBK60161331926819 now', 'iban:GB29NWBK6016\u200b1331926819'],
    ['a target with a zero-width joiner, said the same way', 'grant admin2\u200d now', 'user:admin2\u200d'],
    ['a look-alike letter O for a zero', 'Pay GB29NWBK60161331926819 now', 'iban:GB29NWBK6O161331926819'],
    ['a Cyrillic look-alike', 'Pay GB29NWBK60161331926819 now', 'iban:GB29NWBK6016133192681\u0417'],
  ])('does not match %s', (_rule, text, target) => {
    expect(userWordsFor(target, text === '' ? [] : said(text))).toBeUndefined();
  });
});

describe('where the words come from', () => {
  it('validates from the user and the system, and records the words; tool output never counts', () => {
    const session = createSafetySession({ targets: 'bind' });
    // A read whose output names the address: it is seen, not said by the user.
    session.beginToolCall({ id: 'r', kind: 'read', tool: 'read_inbox', trust: 'untrusted' });
    session.endToolCall({ id: 'r', ok: true });
    const send = { kind: 'write' as const, tool: 'send_email', targets: ['email:eve@evil.example'] };
    expect(session.beginToolCall({ id: 'w1', ...send })?.reasonCode).toBe('NO_VALIDATED_TARGET');

    session.userMessage('You may write to eve@evil.example.', { source: 'system' });
    expect(session.beginToolCall({ id: 'w2', ...send })).toBeNull();
    expect(session.context.provenance).toContainEqual({
      target: 'email:eve@evil.example',
      source: 'user',
      tool: 'send_email',
      words: 'eve@evil.example',
    });
  });

  it("never validates a write's missing target argument, even when the user names the tool", () => {
    const classify = createClassifier({
      tools: { send_money: { kind: 'write', targets: ['recipient'], prefix: 'iban:' } },
    });
    const session = createSafetySession({ targets: 'bind' });
    session.userMessage('Please use send_money for the rent.');
    session.beginToolCall({ id: 'r', kind: 'read', tool: 'get_balance', targets: ['account:1'] });
    session.endToolCall({ id: 'r', ok: true });
    const missing = classify.describe('send_money', { amount: 5 });
    expect(missing.targets).toEqual([expect.stringMatching(/^\?missing:send_money@[0-9a-f]{16}$/)]);
    expect(session.beginToolCall({ id: 'w1', tool: 'send_money', ...missing })?.reasonCode).toBe(
      'TARGET_NOT_VALIDATED',
    );
    // The same words validate a target that is a value.
    const named = { kind: 'write' as const, tool: 'send_money', targets: ['tool:send_money'] };
    expect(session.beginToolCall({ id: 'w2', ...named })).toBeNull();
  });
});
