// server/db/grouped.ts: the items that reach a key in the same turn of the event loop go as one group (the requests
// read from the sockets that were ready together), the items that arrive while a group is in flight go as the next
// one, a lone item still goes (after the turn, not after a timer), a failed or rejected group goes item by item in
// arrival order, keys never wait for each other, and a key allowed two groups in flight sends the next group while the
// first is still out.
import { describe, expect, it } from "vitest";
import { groupedWriter } from "../../server/db/grouped";

function recorder(opts: { failGroups?: boolean; holdMs?: number } = {}) {
  const calls: { kind: "group" | "one"; key: string; items: number[] }[] = [];
  const settled: number[] = [];
  const w = groupedWriter<string, { key: string; n: number }>({
    max: 4,
    async group(items) {
      calls.push({ kind: "group", key: items[0]!.key, items: items.map((i) => i.n) });
      await new Promise((r) => setTimeout(r, opts.holdMs ?? 5));
      if (opts.failGroups) return false;
      settled.push(...items.map((i) => i.n));
      return true;
    },
    async one(item) {
      calls.push({ kind: "one", key: item.key, items: [item.n] });
      await new Promise((r) => setTimeout(r, opts.holdMs ?? 5));
      settled.push(item.n);
    },
  });
  const idle = () => new Promise((r) => setTimeout(r, 60));
  return { w, calls, settled, idle };
}

describe("groupedWriter", () => {
  it("sends the items of one turn's separate callbacks as one group", async () => {
    const { w, calls, settled, idle } = recorder();
    // Three callbacks of one turn's check phase, as three requests read from three sockets in one turn.
    for (const n of [1, 2, 3]) setImmediate(() => w.add("k", { key: "k", n }));
    await idle();
    expect(calls).toEqual([{ kind: "group", key: "k", items: [1, 2, 3] }]);
    expect(settled).toEqual([1, 2, 3]);
  });

  it("sends what arrives while a group is in flight as the next group, at most `max` at a time", async () => {
    const { w, calls, idle } = recorder({ holdMs: 20 });
    w.add("k", { key: "k", n: 1 });
    await new Promise((r) => setTimeout(r, 5)); // the first group is in flight now
    for (const n of [2, 3, 4, 5, 6, 7]) w.add("k", { key: "k", n });
    await idle();
    expect(calls.map((c) => c.items)).toEqual([[1], [2, 3, 4, 5], [6, 7]]);
    expect(calls[0]!.kind).toBe("one");
  });

  it("sends a lone item after the turn, without a timer", async () => {
    const { w, calls } = recorder({ holdMs: 0 });
    w.add("k", { key: "k", n: 9 });
    expect(calls).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual([{ kind: "one", key: "k", items: [9] }]);
  });

  it("sends a failed group item by item, in arrival order", async () => {
    const { w, calls, settled, idle } = recorder({ failGroups: true });
    for (const n of [4, 5, 6]) w.add("k", { key: "k", n });
    await idle();
    expect(calls.map((c) => c.kind)).toEqual(["group", "one", "one", "one"]);
    expect(settled).toEqual([4, 5, 6]);
  });

  it("sends a group whose write rejects item by item, so no item is left unsettled", async () => {
    const done: number[] = [];
    const w = groupedWriter<string, number>({
      max: 10,
      group: async () => {
        throw new Error("the statement failed");
      },
      one: async (n) => void done.push(n),
    });
    for (const n of [1, 2, 3]) w.add("k", n);
    await new Promise((r) => setTimeout(r, 20));
    expect(done).toEqual([1, 2, 3]);
  });

  it("keeps keys apart: each key's items go in their own groups, at the same time", async () => {
    const { w, calls, idle } = recorder({ holdMs: 20 });
    for (const n of [1, 2]) w.add("a", { key: "a", n });
    for (const n of [3, 4]) w.add("b", { key: "b", n });
    await new Promise((r) => setTimeout(r, 10));
    expect(calls.map((c) => c.key).sort()).toEqual(["a", "b"]); // both in flight before either finished
    await idle();
    expect(calls).toHaveLength(2);
  });

  // The tests of `inFlight` hold each write open until the test lets it end, so they depend on no timer: a key's
  // groups start at the end of a turn of the event loop, and `turn()` waits for that.
  const turn = () => new Promise<void>((r) => setImmediate(r));
  function gated(o: { max: number; inFlight?: (n: number) => number; fits?: (items: number[]) => boolean }) {
    const events: string[] = [];
    const open = new Map<string, () => void>();
    const hold = async (name: string) => {
      events.push(`start ${name}`);
      await new Promise<void>((r) => open.set(name, r));
      events.push(`end ${name}`);
    };
    const w = groupedWriter<string, number>({
      max: o.max,
      ...(o.inFlight ? { inFlight: o.inFlight } : {}),
      async group(items) {
        await hold(items.join(","));
        return o.fits?.(items) ?? true;
      },
      one: (n) => hold(String(n)),
    });
    const end = async (name: string) => {
      const release = open.get(name);
      if (!release) throw new Error(`${name} is not in flight`);
      release();
      await turn();
    };
    return { w, events, end };
  }

  it("with two groups allowed in flight, sends the next group while the first is out, and queues behind both", async () => {
    const { w, events, end } = gated({ max: 10, inFlight: () => 2 });
    w.add("k", 1);
    await turn(); // [1] is out
    for (const n of [2, 3]) w.add("k", n); // one turn: the second group, sent at once
    await turn();
    for (const n of [4, 5]) w.add("k", n); // no room: these wait
    await turn();
    expect(events).toEqual(["start 1", "start 2,3"]);
    await end("1");
    expect(events).toEqual(["start 1", "start 2,3", "end 1", "start 4,5"]);
    await end("2,3");
    await end("4,5");
    expect(events).toEqual(["start 1", "start 2,3", "end 1", "start 4,5", "end 2,3", "end 4,5"]);
  });

  it("reads the number of groups in flight from the first item of a key, again when the lane reopens", async () => {
    const asked: number[] = [];
    const { w, events, end } = gated({ max: 10, inFlight: (n) => (asked.push(n), 1) });
    w.add("k", 7);
    await turn();
    for (const n of [8, 9]) w.add("k", n); // one allowed: these wait for [7]
    await turn();
    expect(events).toEqual(["start 7"]);
    await end("7");
    await end("8,9");
    expect(asked).toEqual([7]);
    expect(events).toEqual(["start 7", "end 7", "start 8,9", "end 8,9"]);
    // The lane closed once nothing was queued or in flight: the next item opens it again and is asked again.
    w.add("k", 10);
    await turn();
    expect(asked).toEqual([7, 10]);
    await end("10");
  });

  it("with two groups allowed, a burst larger than `max` goes as two groups at once, the rest after one ends", async () => {
    const { w, events, end } = gated({ max: 2, inFlight: () => 2 });
    for (const n of [1, 2, 3, 4, 5]) w.add("k", n);
    await turn();
    expect(events).toEqual(["start 1,2", "start 3,4"]);
    await end("3,4");
    expect(events).toEqual(["start 1,2", "start 3,4", "end 3,4", "start 5"]);
    await end("5");
    await end("1,2");
    expect(events.slice(-2)).toEqual(["end 5", "end 1,2"]);
  });

  it("with two groups allowed, a failed group goes item by item in arrival order while the other goes on", async () => {
    const { w, events, end } = gated({ max: 2, inFlight: () => 2, fits: (items) => items[0] !== 1 });
    for (const n of [1, 2, 3, 4]) w.add("k", n);
    await turn();
    await end("1,2"); // does not fit: its items go one by one, in the slot it had
    expect(events).toEqual(["start 1,2", "start 3,4", "end 1,2", "start 1"]);
    await end("3,4");
    await end("1");
    await end("2");
    expect(events).toEqual(["start 1,2", "start 3,4", "end 1,2", "start 1", "end 3,4", "end 1", "start 2", "end 2"]);
  });

  it("takes one group at a time when `inFlight` answers something other than a whole number above one", async () => {
    for (const answer of [Number.NaN, 0, -2, 1.5]) {
      const { w, events, end } = gated({ max: 1, inFlight: () => answer });
      for (const n of [1, 2, 3]) w.add("k", n);
      await turn();
      expect(events).toEqual(["start 1"]);
      await end("1");
      await end("2");
      await end("3");
      expect(events).toEqual(["start 1", "end 1", "start 2", "end 2", "start 3", "end 3"]);
    }
  });
});
