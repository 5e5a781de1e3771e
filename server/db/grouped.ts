// Writes of concurrent requests that go to the database together. A key's first item waits for the end of the event
// loop's turn (setImmediate), so the items that reach the same key from the same turn's I/O (the requests read from
// the sockets that were ready together) go with it; while its group is in flight (and the key has no room for
// another: see `inFlight` below), the items that arrive queue behind it and then go as the next group: one statement
// and one commit for many requests. A lone request waits one turn of the loop, not for a timer. This matters most
// where a statement holds the thread while it runs (the embedded database): nothing can queue behind it then, and
// without the wait each request's statement went alone. A group that cannot go as one (its write failed, or the
// caller says it does not fit) goes item by item in arrival order, so each item gets the outcome it would have had
// alone (with two groups in flight, the other group may go meanwhile). Used by the unit reservations
// (server/quota/grouped-reserve.ts) and the assessments' writes (server/assessment/record.ts); each settles its own
// items' promises.
//
// A key may have more than one group in flight (`inFlight`, read from the key's first item): an assessment's
// reservation and its write take two on PostgreSQL's pool, where each statement has a connection of its own. With
// one, the requests of a burst move in lockstep: they reserve together, are gathered together on this thread while the
// database waits, and write together while this thread waits. With two, the next group goes while the first is still
// in the database, so the thread's work and the database's overlap (docs/benchmarks.md, "Two groups in flight").

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
  /**
   * How many groups of one key may be in flight at once, read from the first item when the key's lane opens (again
   * for a lane that closed, when nothing of the key was queued or in flight); 1 if absent or not a whole number above 1.
   */
  inFlight?(item: T): number;
}): GroupedWriter<K, T> {
  interface Lane {
    queue: T[];
    /** Groups of this key in the database now. */
    running: number;
    /** The limit of `running`, read when the lane opened. */
    limit: number;
    /** A start is waiting for the end of this turn. */
    waiting: boolean;
  }
  const lanes = new Map<K, Lane>();
  async function write(items: T[]): Promise<void> {
    if (items.length === 1 || !(await o.group(items).catch(() => false))) for (const item of items) await o.one(item);
  }
  // Sends groups of the queue while the lane has room; a lane with nothing queued or in flight is closed.
  function pump(key: K, lane: Lane): void {
    while (lane.running < lane.limit && lane.queue.length > 0) {
      lane.running++;
      void write(lane.queue.splice(0, o.max)).finally(() => {
        lane.running--;
        pump(key, lane);
      });
    }
    if (lane.running === 0 && !lane.waiting && lane.queue.length === 0) lanes.delete(key);
  }
  return {
    add(key, item) {
      let lane = lanes.get(key);
      if (!lane) {
        const wanted = o.inFlight?.(item) ?? 1;
        lane = { queue: [], running: 0, limit: Number.isInteger(wanted) && wanted > 1 ? wanted : 1, waiting: false };
        lanes.set(key, lane);
      }
      lane.queue.push(item);
      // Room for a group: it goes at the end of this turn, with whatever else reaches the key in the turn. Without
      // room, the item waits for the end of a group in flight and goes with the next one.
      if (lane.running < lane.limit && !lane.waiting) {
        lane.waiting = true;
        const opened = lane;
        endOfTurn(() => {
          opened.waiting = false;
          pump(key, opened);
        });
      }
    },
  };
}
