import type { Rejection } from './outbox';

// The changes the server refused for good, told to whoever on this page listens (the comments
// composer gives a refused reply's text back): the engine reports, a feature says what it means.

type Listener = (rejection: Rejection) => void;
const listeners = new Set<Listener>();

/** Listens to the refusals from now on; returns the function that stops. */
export function onRejection(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** The engine's `onRejected`, which also tells the listeners (each one's failure is its own). */
export function tellingRejections(onRejected?: Listener): Listener {
  return (rejection) => {
    onRejected?.(rejection);
    for (const l of listeners) {
      try {
        l(rejection);
      } catch (err) {
        console.warn('a rejection listener failed', err);
      }
    }
  };
}
