export interface Logger {
  error(message: string, extra?: unknown): void;
  info(message: string, extra?: unknown): void;
  debug(message: string, extra?: unknown): void;
}

const order = { silent: 0, error: 1, info: 2, debug: 3 } as const;

export function createLogger(level: keyof typeof order): Logger {
  const at = order[level];
  const write = (min: number, tag: string) => (message: string, extra?: unknown) => {
    if (at < min) return;
    const line = `${new Date().toISOString()} ${tag} ${message}`;
    if (extra === undefined) console.log(line);
    else console.log(line, extra);
  };
  return { error: write(1, 'ERROR'), info: write(2, 'INFO'), debug: write(3, 'DEBUG') };
}
