/**
 * A bounded least-recently-used map of object sizes. Media keys are unique per content or job, so a
 * size once seen never changes; only a deletion makes it stale.
 */
export class SizeCache {
  private readonly sizes = new Map<string, number>();

  constructor(private readonly max: number) {}

  get(key: string): number | undefined {
    const size = this.sizes.get(key);
    if (size === undefined) return undefined;
    // Re-inserted so that the map's order is the order of last use.
    this.sizes.delete(key);
    this.sizes.set(key, size);
    return size;
  }

  set(key: string, size: number): void {
    this.sizes.delete(key);
    this.sizes.set(key, size);
    if (this.sizes.size > this.max) this.sizes.delete(this.sizes.keys().next().value as string);
  }

  drop(key: string): void {
    this.sizes.delete(key);
  }

  /** Drops every key under `prefix` (a folder's deletion). */
  dropUnder(prefix: string): void {
    for (const key of this.sizes.keys()) if (key.startsWith(prefix)) this.sizes.delete(key);
  }

  get size(): number {
    return this.sizes.size;
  }
}
