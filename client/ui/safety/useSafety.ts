import { useCallback, useMemo } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { getClientDb } from '#client/sync/active-engine';
import { useSyncEngine } from '#client/sync/useSyncEngine';
import { toast } from '../toast';

export interface SafetyState {
  /** The member blocked them, as this device knows it (queued blocks and unblocks applied). */
  blocked: boolean;
  muted: boolean;
}

/** The words of the confirmation a block asks for (docs/decisions/0024-safety.md: a block is two-way). */
export const blockConfirmText = (handle: string): string =>
  `Block @${handle}? They won't be able to see your videos or interact with you, and you won't see theirs. You both stop following each other.`;

/**
 * Whether the member blocked or muted `userId`, read from the device's blocks and mutes stores
 * (all of the member's, queued ones applied), so it holds offline and changes at once. Undefined
 * while it is read, signed out, or for oneself.
 */
export function useSafetyState(userId: string | null): SafetyState | undefined {
  const engine = useSyncEngine();
  const me = engine?.userId ?? null;
  return useLiveQuery(async () => {
    if (!me || !userId || me === userId) return undefined;
    const db = getClientDb();
    const [block, mute] = await Promise.all([db.blocks.get(`${me}:${userId}`), db.mutes.get(`${me}:${userId}`)]);
    return { blocked: !!block, muted: !!mute };
  }, [me, userId]);
}

export interface SafetyActions {
  /** Blocks once the member confirms; false when they did not. */
  block(userId: string, handle: string): boolean;
  unblock(userId: string): void;
  mute(userId: string): void;
  unmute(userId: string): void;
}

/**
 * Block, mute and their undoing: queued (offline too) and shown at once; a refusal by the server
 * is rolled back and announced by the sync bridge, one refused on the device is said here.
 */
export function useSafetyActions(): SafetyActions {
  const engine = useSyncEngine();
  const run = useCallback(
    (name: 'block' | 'unblock' | 'mute' | 'unmute', userId: string, done: string) => {
      if (!engine) return;
      engine.mutate(name, { userId }).then(
        () => toast.success(done),
        (e: unknown) => toast.error('Not saved', { description: e instanceof Error ? e.message : 'Something went wrong' }),
      );
    },
    [engine],
  );
  return useMemo(
    () => ({
      block: (userId, handle) => {
        if (!window.confirm(blockConfirmText(handle))) return false;
        run('block', userId, `Blocked @${handle}`);
        return true;
      },
      unblock: (userId) => run('unblock', userId, 'Unblocked'),
      mute: (userId) => run('mute', userId, 'Muted'),
      unmute: (userId) => run('unmute', userId, 'Unmuted'),
    }),
    [run],
  );
}
