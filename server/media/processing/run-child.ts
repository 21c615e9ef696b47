import { spawn } from 'node:child_process';
import { MediaProcessingError } from './errors';
import { which } from './ffmpeg-binaries';

export interface ChildOptions {
  command: string;
  args: string[];
  /** Run under `nice -n` when nice exists, so transcoding yields the CPU to the web server. */
  nice?: number;
  /** The whole run may not take longer than this. */
  timeoutMs: number;
  /** A run that prints nothing for this long is stuck (a damaged file can make a decoder spin). */
  idleMs?: number;
  signal?: AbortSignal | undefined;
  onStdoutLine?: (line: string) => void;
}

export interface ChildResult {
  code: number | null;
  stdout: string;
  /** The end of stderr: enough for the error ffmpeg printed last, bounded for chatty failures. */
  stderr: string;
}

const keepTail = (s: string, keep: number) => (s.length > keep ? s.slice(-keep) : s);

let niceBinary: string | null | undefined;
function nicePath(): string | undefined {
  if (niceBinary === undefined) niceBinary = which('nice') ?? null;
  return niceBinary ?? undefined;
}

export function abortError(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  return r instanceof Error ? r : new DOMException('Video processing was cancelled', 'AbortError');
}

function commandLine(o: ChildOptions): [string, string[]] {
  const nice = o.nice !== undefined ? nicePath() : undefined;
  return nice ? [nice, ['-n', String(o.nice), o.command, ...o.args]] : [o.command, o.args];
}

/**
 * Runs one child process to completion. Never hangs: an overall timeout, an idle timeout and the
 * abort signal all SIGKILL the child's process group (ffmpeg's own SIGTERM handling can take seconds to flush).
 * A non-zero exit is returned, not thrown, because only the caller knows what it means.
 */
export function runChild(o: ChildOptions): Promise<ChildResult> {
  if (o.signal?.aborted) return Promise.reject(abortError(o.signal));
  const [cmd, args] = commandLine(o);
  return new Promise((resolve, reject) => {
    // Its own process group, so a kill reaches anything it started: a grandchild holding the
    // pipes open would otherwise keep 'close' from ever firing.
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let partial = '';
    let failure: Error | undefined;
    const stop = (e: Error) => {
      failure ??= e;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const total = setTimeout(() => stop(new MediaProcessingError('processing took too long and was stopped', false, `${o.timeoutMs} ms`)), o.timeoutMs);
    let idle: NodeJS.Timeout | undefined;
    const touch = () => {
      if (!o.idleMs) return;
      clearTimeout(idle);
      idle = setTimeout(() => stop(new MediaProcessingError('processing stalled and was stopped', false, `no output for ${o.idleMs} ms`)), o.idleMs);
    };
    const onAbort = () => stop(abortError(o.signal as AbortSignal));
    o.signal?.addEventListener('abort', onAbort, { once: true });
    touch();
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      touch();
      stdout = keepTail(stdout + chunk, 1 << 20);
      if (!o.onStdoutLine) return;
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) o.onStdoutLine(line.trim());
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      touch();
      stderr = keepTail(stderr + chunk, 16 * 1024);
    });
    child.on('error', (e) => (failure ??= new MediaProcessingError('the video tools could not be started', false, e.message)));
    child.on('close', (code) => {
      clearTimeout(total);
      clearTimeout(idle);
      o.signal?.removeEventListener('abort', onAbort);
      if (failure) reject(failure);
      else resolve({ code, stdout, stderr });
    });
  });
}
