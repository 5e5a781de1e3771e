// The rule editor warns before an active allow or review rule replaces the score's block (issue 22).
import { describe, expect, it } from "vitest";
import { emptyDraft, overrideWarning, type RuleDraft } from "../../app/dashboard/rules/rule-draft";

const draft = (over: Partial<RuleDraft>): RuleDraft => ({ ...emptyDraft(), mode: "active", ...over });

describe("the override warning of a rule draft", () => {
  it("warns for an active allow or review rule that does not bound the score", () => {
    expect(overrideWarning(draft({ action: "allow" }))).toContain("is allowed even when its score alone");
    expect(overrideWarning(draft({ action: "review" }))).toContain("only sent to review");
    expect(
      overrideWarning(draft({ action: "allow", conditions: [{ field: "score", op: "gt", value: "10" }] })),
    ).not.toBeNull();
  });

  it("stays quiet when the rule bounds the score, is in shadow mode, or challenges or blocks", () => {
    expect(
      overrideWarning(draft({ action: "allow", conditions: [{ field: "score", op: "lt", value: "80" }] })),
    ).toBeNull();
    expect(overrideWarning(draft({ action: "allow", form: "expression", expression: "score <= 40" }))).toBeNull();
    expect(
      overrideWarning(draft({ action: "review", form: "expression", expression: 'risk_level != "critical"' })),
    ).toBeNull();
    expect(overrideWarning(draft({ action: "allow", mode: "shadow" }))).toBeNull();
    expect(overrideWarning(draft({ action: "block" }))).toBeNull();
    expect(overrideWarning(draft({ action: "challenge" }))).toBeNull();
  });
});
