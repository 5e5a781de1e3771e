// Writes of concurrent requests that go to the database together. While one group of a key is in flight, the
// items that arrive for the same key queue behind it and then go as one group: one statement and one commit for
// many requests. An item that finds nothing in flight goes at once, so a lone request waits for nothing. A group
// that cannot go as one (its write failed, or the caller says it does not fit) goes item by item in arrival order,
// so each item gets the outcome it would have had alone. Used by the unit reservations
// (server/quota/grouped-reserve.ts) and the assessments' writes (server/assessment/record.ts); each settles its own
// items' promises.

export interface GroupedWriter<K, T> {
  /** Queues `item` behind the group of `key` in flight, or starts a group with it. */
  add(key: K, item: T): void;
}

export function groupedWriter<K, T>(o: {
  /** At most this many items in one group. */
  max: number;
  /** Writes a group of two or more and settles it; false (nothing written, nothing settled) sends it item by item. */
  group(items: T[]): Promise<boolean>;
  /** Writes one item and settles it; never rejects. */
  one(item: T): Promise<void>;
}): GroupedWriter<K, T> {
  const queues = new Map<K, T[]>();
  async function drain(key: K, queue: T[]): Promise<void> {
    try {
      while (queue.length > 0) {
        const items = queue.splice(0, o.max);
        if (items.length === 1 || !(await o.group(items))) for (const item of items) await o.one(item);
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
      void drain(key, fresh);
    },
  };
}
