import { describe, expect, it, vi } from 'vitest';
import { onRejection, tellingRejections } from './rejection-events';

describe('rejection events', () => {
  it("tells the engine's own handler and every listener until it stops, one listener's failure kept to itself", () => {
    const own = vi.fn();
    const heard: string[] = [];
    const stopBroken = onRejection(() => {
      throw new Error('broken listener');
    });
    const stop = onRejection((r) => heard.push(r.error.code));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const tell = tellingRejections(own);
    const refusal = { name: 'addComment', args: { content: 'hi' }, error: { code: 'parent_deleted', message: 'gone' } };
    tell(refusal);
    expect(own).toHaveBeenCalledWith(refusal);
    expect(heard).toEqual(['parent_deleted']);
    stop();
    stopBroken();
    tell(refusal);
    expect(heard).toEqual(['parent_deleted']);
    expect(own).toHaveBeenCalledTimes(2);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });
});
