import { describe, expect, it } from 'vitest';
import { MediaProcessingError } from './errors';
import { runChild } from './run-child';

describe('runChild', () => {
  it('runs the command under nice at the given level', async () => {
    // `nice` with no command prints the niceness it runs at.
    const res = await runChild({ command: 'nice', args: [], nice: 7, timeoutMs: 5000 });
    expect(res).toMatchObject({ code: 0, stdout: expect.stringMatching(/^7\s*$/) });
  });

  it('hands stdout over line by line and returns a non-zero exit instead of throwing', async () => {
    const lines: string[] = [];
    const res = await runChild({
      command: 'sh',
      args: ['-c', 'printf "a=1\\nb=2\\n"; echo oops >&2; exit 3'],
      timeoutMs: 5000,
      onStdoutLine: (l) => lines.push(l),
    });
    expect(lines).toEqual(['a=1', 'b=2']);
    expect(res.code).toBe(3);
    expect(res.stderr).toBe('oops\n');
  });

  it('kills a child that runs past its timeout, as a retryable failure', async () => {
    const started = Date.now();
    const err = await runChild({ command: 'sleep', args: ['30'], timeoutMs: 200 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MediaProcessingError);
    expect((err as MediaProcessingError).permanent).toBe(false);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('kills a child that goes silent for longer than the idle limit', async () => {
    const err = await runChild({ command: 'sh', args: ['-c', 'echo start; sleep 30'], timeoutMs: 60_000, idleMs: 300 }).catch((e: unknown) => e);
    expect((err as MediaProcessingError).reason).toBe('processing stalled and was stopped');
  });

  it('kills the child on abort and rejects with the abort reason', async () => {
    const controller = new AbortController();
    const pending = runChild({ command: 'sleep', args: ['30'], timeoutMs: 60_000, signal: controller.signal });
    setImmediate(() => controller.abort());
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reports a command that cannot start', async () => {
    await expect(runChild({ command: '/nonexistent/ffmpeg', args: [], timeoutMs: 5000 })).rejects.toMatchObject({
      reason: 'the video tools could not be started',
    });
  });
});
