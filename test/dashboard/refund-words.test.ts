// The lookup history says what a failed request gave back in words, never its raw status and error code.
import { describe, expect, it } from "vitest";
import { refundText } from "../../app/dashboard/history/refund-words";

describe("refundText", () => {
  it("reads a 503's refund without the code", () => {
    expect(
      refundText({
        refunded_units: 867,
        refund_reason:
          "Not answered (503 UPSTREAM_UNAVAILABLE): The OSV advisory database is unavailable (timed out); try again in a moment.",
      }),
    ).toBe("867 units given back: The OSV advisory database is unavailable (timed out).");
  });

  it("keeps a batch's own reason, and says one unit", () => {
    expect(refundText({ refunded_units: 1, refund_reason: "1 target no blocklist answered" })).toBe(
      "1 unit given back: 1 target no blocklist answered",
    );
  });

  it("is nothing when nothing was given back", () => {
    expect(refundText({ city: "Mountain View" })).toBeNull();
    expect(refundText({ refunded_units: 0 })).toBeNull();
  });
});
