// Writes of concurrent requests that go to the database together. A key's first item waits for the end of the event
// loop's turn (setImmediate), so the items that reach the same key from the same turn's I/O (the requests read from
// the sockets that were ready together) go with it; while its group is in flight, the items that arrive queue behind
// it and then go as the next group: one statement and one commit for many requests. A lone request waits one turn of
// the loop, not for a timer. This matters most where a statement holds the thread while it runs (the embedded
// database): nothing can queue behind it then, and without the wait each request's statement went alone. A group
// that cannot go as one (its write failed, or the caller says it does not fit) goes item by item in arrival order, so
// each item gets the outcome it would have had alone. Used by the unit reservations (server/quota/grouped-reserve.ts)
// and the assessments' writes (server/assessment/record.ts); each settles its own items' promises.

export interface GroupedWriter<K, T> {
  /** Queues `item` behind the group of `key` in flight, or starts a group with it at the end of this turn. */
  add(key: K, item: T): void;
}

// The real setImmediate, whatever a test later does to the global timers.
const endOfTurn = setImmediate;

export function groupedWriter<K, T>(o: {
  /** At most this many items in one group. */
  max: number;
  /**
   * Writes a group of two or more and settles it; false (nothing written, nothing settled) sends it item by item, as
   * does a rejection.
   */
  group(items: T[]): Promise<boolean>;
  /** Writes one item and settles it; never rejects. */
  one(item: T): Promise<void>;
}): GroupedWriter<K, T> {
  const queues = new Map<K, T[]>();
  async function drain(key: K, queue: T[]): Promise<void> {
    try {
      while (queue.length > 0) {
        const items = queue.splice(0, o.max);
        if (items.length === 1 || !(await o.group(items).catch(() => false)))
          for (const item of items) await o.one(item);
      }
    } finally {
      queues.delete(key);
    }
  }
  return {
    add(key, item) {
      const queue = queues.get(key);
      if (queue) {
        queue.push(item);
        return;
      }
      const fresh = [item];
      queues.set(key, fresh);
      endOfTurn(() => void drain(key, fresh));
    },
  };
}
