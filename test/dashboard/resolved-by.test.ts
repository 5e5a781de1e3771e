// Who resolved a case, in words (app/dashboard/cases/resolved-by.ts): the signed-in member is "you", another member
// their email, an API key its name, and someone no longer in the members list is said as such, never as an id.
import { describe, expect, it } from "vitest";
import { resolvedByWords } from "../../app/dashboard/cases/resolved-by";

const known = {
  myUserId: "usr_me",
  keyNames: { key_1: "ci" },
  memberEmails: { usr_me: "me@acme.test", usr_ann: "ann@acme.test" },
};

describe("resolvedByWords", () => {
  it("names the signed-in member, another member by email and a key by its name", () => {
    expect(resolvedByWords("user:usr_me", known)).toBe("you");
    expect(resolvedByWords("user:usr_ann", known)).toBe("ann@acme.test");
    expect(resolvedByWords("api_key:key_1", known)).toBe("the API key “ci”");
  });

  it("says a member who left, a deleted key, and nothing for an unknown kind", () => {
    expect(resolvedByWords("user:usr_gone", known)).toBe("a former member of this workspace");
    expect(resolvedByWords("api_key:key_gone", known)).toBe("an API key");
    expect(resolvedByWords("robot:x", known)).toBeNull();
    expect(resolvedByWords(null, known)).toBeNull();
  });

  it("says another member while the members list has not loaded", () => {
    expect(resolvedByWords("user:usr_ann", { myUserId: "usr_me", keyNames: {} })).toBe(
      "another member of this workspace",
    );
  });
});
