// Zod-free: the client replays queued mutations on its first screen, before zod is loaded.

/** What a mutation needs to know about a video. */
export interface VideoRef {
  id: string;
  user_id: string;
  duration_ms: number;
  /**
   * Whether its media is playable yet. The server always knows; the client's optimistic copy may
   * leave it out, and then the server alone decides (a refusal rolls the optimistic effect back).
   */
  media_status?: 'processing' | 'ready' | 'failed';
}

export type VideoCounter = 'likes_count' | 'comments_count' | 'shares_count';

/** A member's action on a video (a like, or the member's shares of it). */
export interface MemberVideoKey {
  videoId: string;
  userId: string;
}

/**
 * The tables a mutation reads and writes, named for tables and operations (zbugs' `tx.mutate.<table>`),
 * not for mutations. The client implements it over its Dexie tables (optimistic: the rows this device
 * holds), the server over the database (authoritative: it stamps the time, writes the change log and
 * keeps counters exact). A mutation's logic is written once against it.
 */
export interface MutationTx {
  readonly location: 'client' | 'server';
  /** The acting member; on the server it comes from the access token, never from the args. */
  readonly userId: string;
  isAdmin(): Promise<boolean>;
  readonly videos: {
    get(id: string): Promise<VideoRef | undefined>;
    increment(id: string, counter: VideoCounter, by: 1 | -1): Promise<void>;
    /** The video with everything that hangs off it (its comments, likes and views). */
    delete(video: VideoRef): Promise<void>;
  };
  /*
   * Inserts and deletes may answer `false`: the row was already there (or already gone), nothing
   * changed, and the mutation moves no counter. The server answers from the rows it really wrote:
   * another transaction may have changed them since the mutation read them. The client answers
   * nothing (its optimistic write always lands).
   */
  readonly likes: {
    get(key: MemberVideoKey): Promise<{ created_at: number } | undefined>;
    insert(key: MemberVideoKey): Promise<boolean | void>;
    delete(key: MemberVideoKey): Promise<boolean | void>;
  };
  readonly comments: {
    get(id: string): Promise<{ video_id: string; user_id: string } | undefined>;
    insert(row: { id: string; videoId: string; userId: string; content: string }): Promise<boolean | void>;
  };
  readonly shares: {
    get(id: string): Promise<{ video_id: string; user_id: string } | undefined>;
    /** Whether the member shared the video before (the count counts members, not shares). */
    anyBy(key: MemberVideoKey): Promise<boolean>;
    insert(row: { id: string; videoId: string; userId: string }): Promise<boolean | void>;
  };
  readonly profiles: {
    update(userId: string, patch: { name: string }): Promise<void>;
  };
  readonly notifications: {
    /** Marks the acting member's own unread notification read; `false`: nothing changed. */
    markRead(id: string): Promise<boolean | void>;
  };
}
