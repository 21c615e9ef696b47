import { describe, expect, it } from 'vitest';
import { isQuietRefusal } from './quiet-refusals';

const refusal = (name: string, code: string) => ({ name, error: { code, message: 'refused' } });

describe('isQuietRefusal', () => {
  it('drops `blocked` without a toast, whatever the mutation', () => {
    for (const name of ['like', 'addComment', 'follow', 'report', 'unknownMutation']) expect(isQuietRefusal(refusal(name, 'blocked'))).toBe(true);
  });

  it("drops a mutation's own quiet codes, and only its own", () => {
    expect(isQuietRefusal(refusal('report', 'not_found'))).toBe(true);
    expect(isQuietRefusal(refusal('like', 'not_found'))).toBe(false);
    expect(isQuietRefusal(refusal('report', 'limit'))).toBe(false);
    expect(isQuietRefusal(refusal('block', 'invalid'))).toBe(false);
  });
});
