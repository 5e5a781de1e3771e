// keepIn: the ref callback that keeps a list's elements in a Map by key (RulePacks' headings and "Test first"
// buttons, BulkJobList's "Open" buttons), so focus can be put back on the element of a given row.
import { describe, expect, it } from "vitest";
import { keepIn } from "../../app/dashboard/_components/keep-in";

describe("keepIn", () => {
  it("keeps the element under its key while mounted and forgets it when React passes null", () => {
    const map = new Map<string, { id: string }>();
    const a = { id: "a" };
    const ref = keepIn(map, "k1");
    ref(a);
    expect(map.get("k1")).toBe(a);
    keepIn(map, "k2")({ id: "b" });
    expect([...map.keys()]).toEqual(["k1", "k2"]);
    ref(null);
    expect(map.has("k1")).toBe(false);
    expect(map.has("k2")).toBe(true);
  });
});
