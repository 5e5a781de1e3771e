// A cancelled job's items still running finish and count: the jobs list once left them out ("0 done, 8 cancelled of
// 12" while the job's own line said "4 remaining"). Both now say the same parts, and the parts count every item.
import { describe, expect, it } from "vitest";
import { progressParts } from "../../app/dashboard/bulk/bulk-text";

describe("a bulk job's progress in words", () => {
  it("counts the items still running after a cancel as remaining", () => {
    const p = { total: 12, succeeded: 0, failed: 0, queued: 0, running: 4, cancelled: 8 };
    expect(progressParts(p)).toEqual(["0 done", "4 remaining", "8 cancelled"]);
  });

  it("says done always and the other counts only when there are some, adding up to the total", () => {
    expect(progressParts({ succeeded: 20, failed: 0, queued: 0, running: 0, cancelled: 0 })).toEqual(["20 done"]);
    const parts = progressParts({ succeeded: 3, failed: 2, queued: 4, running: 1, cancelled: 2 });
    expect(parts).toEqual(["3 done", "2 failed", "5 remaining", "2 cancelled"]);
    expect(parts.reduce((n, part) => n + Number(part.split(" ")[0]), 0)).toBe(12);
  });
});
