/**
 * The open event streams of this process, by member and by session (the refresh-token family the
 * stream's access token was issued for). Lets the server bound how many streams one member holds
 * and close a stream the moment its session ends: logout, logout everywhere, a password reset or
 * change, a suspension or a deletion.
 */
export type StreamCloseReason = 'replaced' | 'ended';

export interface LiveStream {
  userId: string;
  /** The session (refresh family) of the access token that opened it; undefined for older tokens. */
  sessionId: string | undefined;
  /**
   * Ends the stream; safe to call more than once. 'replaced': a newer stream of the member took its
   * place (the client then waits long before reconnecting, or tabs would keep replacing each other);
   * 'ended': its session or account ended.
   */
  close(reason: StreamCloseReason): void;
}

/** At most this many streams per member: the oldest is closed when one more opens. */
export const MAX_STREAMS_PER_MEMBER = 5;

export class LiveStreams {
  /** Per member, oldest first. */
  private readonly byUser = new Map<string, LiveStream[]>();

  /** Registers an open stream; returns the function that unregisters it (call it when it ends). */
  open(stream: LiveStream): () => void {
    const list = this.byUser.get(stream.userId) ?? [];
    list.push(stream);
    this.byUser.set(stream.userId, list);
    while (list.length > MAX_STREAMS_PER_MEMBER) list.shift()?.close('replaced');
    return () => this.remove(stream);
  }

  /** Closes every stream of one session (logout). */
  endSession(userId: string, sessionId: string): void {
    for (const s of [...(this.byUser.get(userId) ?? [])]) if (s.sessionId === sessionId) s.close('ended');
  }

  /** Closes every stream of a member, or all but one session's (password change keeps the caller's). */
  endUser(userId: string, exceptSessionId?: string): void {
    for (const s of [...(this.byUser.get(userId) ?? [])]) if (exceptSessionId === undefined || s.sessionId !== exceptSessionId) s.close('ended');
  }

  count(userId: string): number {
    return this.byUser.get(userId)?.length ?? 0;
  }

  private remove(stream: LiveStream): void {
    const list = this.byUser.get(stream.userId);
    if (!list) return;
    const i = list.indexOf(stream);
    if (i >= 0) list.splice(i, 1);
    if (!list.length) this.byUser.delete(stream.userId);
  }
}
