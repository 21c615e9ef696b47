import { spawn, type ChildProcess } from 'node:child_process';
import { PROJECT_ROOT } from '#tests/helpers/server-process';

export { freePort } from '#tests/helpers/server-process';

export interface ChildServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * A baseline server (tests/bench/baselines/raw-server.ts) in its own process, like the real server,
 * so both sides pay the same client/server process split.
 */
export async function startBaseline(mode: string, env: Record<string, string> = {}): Promise<ChildServer> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'tests/bench/baselines/raw-server.ts', mode], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const port = await new Promise<number>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`baseline ${mode} did not start:\n${log}`)), 30_000);
    child.stdout?.on('data', (d: Buffer) => {
      log += d.toString();
      const m = /baseline listening on (\d+)/.exec(log);
      if (m?.[1]) {
        clearTimeout(timer);
        ok(Number(m[1]));
      }
    });
    child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`baseline ${mode} exited with ${code}:\n${log}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    stop: () =>
      new Promise<void>((ok) => {
        if (child.exitCode !== null || child.signalCode !== null) return ok();
        child.once('exit', () => ok());
        child.kill('SIGTERM');
      }),
  };
}
