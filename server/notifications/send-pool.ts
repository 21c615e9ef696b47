// The push sender's pool (docs/notifications.md, "Delivery"): at most `limit` sends at a time, at most
// `perKey` of them for one member, the members' queues taken in turn. A member whose endpoints never
// answer then holds a few slots for one send budget each, never the queue: everyone else's pushes
// go past them (one at a time, a tarpit endpoint held every push behind it for its whole timeout).

type Start = () => void;

export class FairPool {
  private active = 0;
  private readonly activeOf = new Map<string, number>();
  /** Waiting sends by member; the Map's order is the turn order (a member served moves to the back). */
  private readonly waiting = new Map<string, Start[]>();

  constructor(
    private readonly limit: number,
    private readonly perKey: number,
  ) {}

  /** Runs `task` when a slot is free and it is `key`'s turn; settles as the task does. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    return new Promise<T>((ok, fail) => {
      const start = () => {
        this.active++;
        this.activeOf.set(key, (this.activeOf.get(key) ?? 0) + 1);
        task()
          .then(ok, fail)
          .finally(() => {
            this.active--;
            const left = (this.activeOf.get(key) ?? 1) - 1;
            if (left) this.activeOf.set(key, left);
            else this.activeOf.delete(key);
            this.next();
          });
      };
      const queue = this.waiting.get(key);
      if (queue) queue.push(start);
      else this.waiting.set(key, [start]);
      this.next();
    });
  }

  private next(): void {
    while (this.active < this.limit) {
      const key = [...this.waiting.keys()].find((k) => (this.activeOf.get(k) ?? 0) < this.perKey);
      if (key === undefined) return;
      const queue = this.waiting.get(key) ?? [];
      const start = queue.shift();
      this.waiting.delete(key);
      if (queue.length) this.waiting.set(key, queue);
      start?.();
    }
  }
}
