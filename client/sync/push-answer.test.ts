import { describe, expect, it } from 'vitest';
import { PushResponseSchema } from '#sync/protocol/messages';
import { readPushAnswer } from './push-answer';
import { TemporaryError } from './sync-transport';

describe("the service worker's reading of a push answer", () => {
  it("takes what the page's schema takes", () => {
    const answer = {
      results: [
        { id: 1, status: 'applied' },
        { id: 2, status: 'duplicate' },
        { id: 3, status: 'rejected', error: { code: 'not_found', message: 'The video is gone.' } },
      ],
      last_mutation_id: 3,
    };
    expect(PushResponseSchema.parse(answer)).toEqual(answer);
    expect(readPushAnswer(answer)).toEqual(answer);
  });

  it.each([
    ['no results', { last_mutation_id: 1 }],
    ['a result without an id', { results: [{ status: 'applied' }], last_mutation_id: 1 }],
    ['an unknown status', { results: [{ id: 1, status: 'maybe' }], last_mutation_id: 1 }],
    ['an error without a message', { results: [{ id: 1, status: 'rejected', error: { code: 'x' } }], last_mutation_id: 1 }],
    ['no last id', { results: [] }],
    ['not an object', 'ok'],
  ])('refuses an answer with %s as a failed round, as the schema does', (_what, raw) => {
    expect(PushResponseSchema.safeParse(raw).success).toBe(false);
    expect(() => readPushAnswer(raw)).toThrow(TemporaryError);
  });
});
