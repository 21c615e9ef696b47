import type * as ValidatorsModule from './validators';
import { afterFirstScreen } from '../lib/after-first-screen';
import { onFirstInput } from '../lib/on-first-input';

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

/**
 * Loads the validators before the first tap needs them, and returns a cancel function. Their
 * evaluation was a long task of a slow phone's first screen, which needs none of them: with a
 * service worker in control (the chunk is precached, offline too) they load at the member's first
 * touch, click or key, while the tap is under way. Without one (a first visit) they load once the
 * first screen is drawn, while the network is surely there: a tap made offline later must not find
 * them missing.
 */
export function preloadValidators(): () => void {
  const load = () => void loadValidators().catch(() => undefined);
  return serviceWorkerControls() ? onFirstInput(load) : afterFirstScreen(load);
}

function serviceWorkerControls(): boolean {
  return typeof navigator !== 'undefined' && !!navigator.serviceWorker?.controller;
}
