import type * as ValidatorsModule from './validators';

/** The zod-based validators (validators.ts), loaded once, on demand. */
export type Validators = typeof ValidatorsModule;

let loading: Promise<Validators> | null = null;
let loaded: Validators | null = null;

/**
 * Starts loading the validators (the sync engine calls it when it starts, long before the first
 * answer or tap needs them) and resolves with them. A failed load (e.g. offline before the service
 * worker cached the chunk) is forgotten, so the engine's next retry loads it again.
 */
export function loadValidators(): Promise<Validators> {
  loading ??= import('./validators').then(
    (v) => (loaded = v),
    (err: unknown) => {
      loading = null;
      throw err;
    },
  );
  return loading;
}

/**
 * The validators if they are in already. Callers use them synchronously when they can, so a
 * mutation or poke is handled in the same turn as before the lazy load, keeping the order of
 * local writes and events exactly as they happened.
 */
export function loadedValidators(): Validators | null {
  return loaded;
}
