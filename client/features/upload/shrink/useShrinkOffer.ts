import { useCallback, useEffect, useRef, useState } from 'react';
import { costlyConnection, type CostlyReason } from '#client/lib/connection';
import { getMediaPreferences } from '#client/lib/media-preferences';
import { worthShrinking, type VideoFacts } from './plan';

export type ShrinkState =
  | { step: 'idle' }
  | { step: 'checking' }
  | { step: 'offer'; facts: VideoFacts; original: File; reason: CostlyReason }
  | { step: 'shrinking'; fraction: number; original: File }
  | { step: 'shrunk'; original: File; shrunk: File }
  | { step: 'failed'; message: string };

/** Why shrinking could save this member something now: the app's data saver, then what the browser says. */
function costlyReason(): CostlyReason | null {
  if (getMediaPreferences().dataSaver) return 'save-data';
  return costlyConnection();
}

// Loaded on demand: the client module names the worker, and nothing of it is fetched before a file is picked.
const loadClient = () => import('./shrink-client');

/**
 * The offer to shrink a picked video before upload (docs/pwa.md, "Shrink before upload"). `replace` puts a
 * file in the form: the shrunk one when it is ready, the original again when the member changes their mind.
 */
export function useShrinkOffer(replace: (file: File) => void) {
  const [state, setState] = useState<ShrinkState>({ step: 'idle' });
  // Each pick gets a number: an answer about an earlier pick is dropped.
  const pick = useRef(0);
  const running = useRef<{ cancel(): void } | null>(null);

  const stop = useCallback(() => {
    pick.current += 1;
    running.current?.cancel();
    running.current = null;
  }, []);

  const reset = useCallback(() => {
    stop();
    setState({ step: 'idle' });
  }, [stop]);

  useEffect(() => stop, [stop]);

  const consider = useCallback(
    async (file: File) => {
      stop();
      const mine = pick.current;
      const reason = costlyReason();
      if (!reason || typeof VideoEncoder === 'undefined') return setState({ step: 'idle' });
      setState({ step: 'checking' });
      const facts = await loadClient()
        .then((c) => (c.canShrinkHere() ? c.probeVideo(file) : null))
        .catch(() => null);
      if (mine !== pick.current) return;
      setState(facts && worthShrinking(facts) ? { step: 'offer', facts, original: file, reason } : { step: 'idle' });
    },
    [stop],
  );

  const accept = useCallback(async () => {
    if (state.step !== 'offer') return;
    const { original, facts } = state;
    const mine = pick.current;
    setState({ step: 'shrinking', fraction: 0, original });
    try {
      const client = await loadClient();
      const job = client.shrinkVideo(original, facts, (fraction) => {
        if (mine === pick.current) setState({ step: 'shrinking', fraction, original });
      });
      running.current = job;
      const shrunk = await job.result;
      if (mine !== pick.current) return;
      running.current = null;
      replace(shrunk);
      setState({ step: 'shrunk', original, shrunk });
    } catch (err) {
      if (mine !== pick.current || (err instanceof Error && err.name === 'ShrinkCancelled')) return;
      running.current = null;
      // The original stays chosen: the member loses nothing but the saving.
      setState({ step: 'failed', message: err instanceof Error ? err.message : String(err) });
    }
  }, [state, replace]);

  /** Stops a running shrink (or turns the offer down); the original stays chosen. */
  const keepOriginal = useCallback(() => {
    const original = state.step === 'shrinking' || state.step === 'shrunk' ? state.original : null;
    stop();
    if (original) replace(original);
    setState({ step: 'idle' });
  }, [state, stop, replace]);

  return { state, consider, accept, keepOriginal, reset };
}
