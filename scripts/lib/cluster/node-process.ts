import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { resolve } from 'node:path';

/** The repository's root: every process of the cluster runs from it, as `npm start` does. */
export const PROJECT_ROOT = resolve(import.meta.dirname, '../../..');

export interface ManagedProcess {
  name: string;
  /** The running process's id (changes with restart). */
  readonly pid: number;
  /** Everything it printed since the cluster started (all its lives). */
  output(): string;
  /** SIGTERM, and resolves once it exited. */
  stop(): Promise<void>;
  /** SIGKILL (a crash), and resolves once it exited. */
  kill9(): Promise<void>;
  /** Stops it (SIGTERM) if it runs and starts it again with the same environment. */
  restart(): Promise<void>;
}

export interface NodeProcessOptions {
  name: string;
  /** Node's arguments: an entry point under the repository and how to load it (`nodeEntryArgs`). */
  args: string[];
  env: Record<string, string>;
  /** Printed once it is ready (e.g. "Vidi listening on"); the start waits for it. */
  ready: RegExp;
  /** Where its output is appended, so a cluster left running can be read with tail -f. */
  logFile: string;
  /** Echo its output to this process's, each line prefixed with the name. */
  echo?: boolean;
  startTimeoutMs?: number;
}

/**
 * One `node <args>` of the cluster (a server entry point, `../node-entry.ts`). Its environment is
 * this process's minus what would make it another deployment (the caller's DATABASE_URL, S3_* and
 * the like are replaced by `env`), so a test runner's variables do not leak into the instances.
 */
export async function startNodeProcess(o: NodeProcessOptions): Promise<ManagedProcess> {
  let child: ChildProcess | undefined;
  let log = '';
  const file: WriteStream = createWriteStream(o.logFile, { flags: 'a' });
  const note = (text: string) => {
    log += text;
    file.write(text);
    if (o.echo) process.stdout.write(text.replace(/^(?=.)/gm, `[${o.name}] `));
  };

  const launch = () =>
    new Promise<void>((ok, fail) => {
      const startedAt = log.length;
      const c = spawn(process.execPath, o.args, {
        cwd: PROJECT_ROOT,
        env: { ...inheritedEnv(), ...o.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = c;
      const timer = setTimeout(
        () => fail(new Error(`${o.name} did not start in ${(o.startTimeoutMs ?? 60_000) / 1000} s:\n${log.slice(startedAt)}`)),
        o.startTimeoutMs ?? 60_000,
      );
      const onData = (d: Buffer) => {
        note(d.toString());
        if (o.ready.test(log.slice(startedAt))) {
          clearTimeout(timer);
          ok();
        }
      };
      c.stdout?.on('data', onData);
      c.stderr?.on('data', onData);
      c.once('exit', (code, signal) => {
        clearTimeout(timer);
        note(`[${o.name} exited: ${signal ?? code}]\n`);
        fail(new Error(`${o.name} exited (${signal ?? code}) before it was ready:\n${log.slice(startedAt)}`));
      });
    });

  const waitExit = (signal: NodeJS.Signals) =>
    new Promise<void>((ok) => {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return ok();
      c.once('exit', () => ok());
      c.kill(signal);
    });

  await launch();
  return {
    name: o.name,
    get pid() {
      return child?.pid ?? 0;
    },
    output: () => log,
    stop: async () => {
      await waitExit('SIGTERM');
    },
    kill9: () => waitExit('SIGKILL'),
    restart: async () => {
      await waitExit('SIGTERM');
      await launch();
    },
  };
}

/** Variables that configure a Vidi process or a test run: never inherited, only given. */
const OWN = /^(PORT|HOST|DATA_DIR|DATABASE_|PUBLIC_URL|JWT_PRIVATE_KEY|SECRETS_KEY|S3_|MEDIA_|CLIENT_DIST|TRUST_PROXY_HOPS|LOG_LEVEL|VIDI_|NODE_ENV$)/;

function inheritedEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && !OWN.test(e[0])));
}
