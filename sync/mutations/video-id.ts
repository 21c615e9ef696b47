// Zod-free so the client's outbox and rebase (on the first screen's path) do not pull in zod.

/** The video a mutation is about, for per-item pending flags and scoped rebase. */
export function mutationVideoId(m: { name: string; args: unknown }): string | undefined {
  const args = m.args as { videoId?: unknown } | null;
  return args && typeof args.videoId === 'string' ? args.videoId : undefined;
}
