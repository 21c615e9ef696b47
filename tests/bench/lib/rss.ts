import { readFileSync } from 'node:fs';

/** Resident memory of a process in MiB (VmRSS from /proc/<pid>/status). */
export function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m?.[1] ? Number(m[1]) / 1024 : NaN;
}

/** Samples RSS every `everyMs` until stopped; returns the samples in MiB. */
export function sampleRss(pid: number, everyMs = 250): { stop(): number[] } {
  const samples: number[] = [];
  const take = () => {
    try {
      samples.push(rssMiB(pid));
    } catch {
      // Gone (a crash test): stop sampling quietly.
    }
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}
