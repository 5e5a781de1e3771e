// Ids draw their random part from a pooled buffer (server/ids.ts): no slice may ever be handed out twice, across
// pool refills and sizes, and the ids keep their form.
import { describe, expect, it } from "vitest";
import { newId, sortableId } from "../../server/ids";

describe("ids", () => {
  it("never repeats a random part across many pool refills, for any size", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20_000; i++) {
      const bytes = 8 + (i % 33); // 8 random bytes or more: a repeat would be a slice handed out twice
      const id = newId("t", bytes);
      expect(id).toMatch(/^t_[A-Za-z0-9_-]+$/);
      expect(Buffer.from(id.slice(2), "base64url")).toHaveLength(bytes);
      seen.add(id);
    }
    expect(seen.size).toBe(20_000);
    // Larger than the pool: drawn on its own.
    expect(Buffer.from(newId("big", 5000).slice(4), "base64url")).toHaveLength(5000);
  });

  it("sortable ids stay unique and ordered by creation", () => {
    const ids = Array.from({ length: 5_000 }, () => sortableId("evt"));
    expect(new Set(ids).size).toBe(ids.length);
    const prefixes = ids.map((id) => id.slice(4, 20));
    expect([...prefixes].sort()).toEqual(prefixes);
  });
});
