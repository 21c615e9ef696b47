import { afterEach, describe, expect, it, vi } from 'vitest';
import { onFirstInput } from './on-first-input';

describe('onFirstInput', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('runs once, at the first pointer, touch or key, and stops listening', () => {
    const page = new EventTarget();
    vi.stubGlobal('window', page);
    const run = vi.fn();
    onFirstInput(run);
    page.dispatchEvent(new Event('scroll'));
    expect(run).not.toHaveBeenCalled();
    page.dispatchEvent(new Event('keydown'));
    expect(run).toHaveBeenCalledTimes(1);
    page.dispatchEvent(new Event('pointerdown'));
    page.dispatchEvent(new Event('touchstart'));
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs nothing once cancelled', () => {
    const page = new EventTarget();
    vi.stubGlobal('window', page);
    const run = vi.fn();
    onFirstInput(run)();
    page.dispatchEvent(new Event('touchstart'));
    expect(run).not.toHaveBeenCalled();
  });
});
