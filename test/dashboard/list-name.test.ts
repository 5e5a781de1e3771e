// The Lists page's name field writes a name the way rules call lists as it is typed (a newcomer's walk: typing
// "Blocked countries" was refused by the browser with only "Please match the requested format").
import { describe, expect, it } from "vitest";
import { listNameAsTyped } from "../../app/dashboard/lists/list-name";
import { LIST_NAME_PATTERN } from "../../server/lists/values";

describe("a list name as it is typed", () => {
  it.each([
    ["Blocked countries", "blocked_countries"],
    ["Office-networks", "office_networks"],
    ["  VIP  users", "vip__users"],
    ["partner_accounts_2", "partner_accounts_2"],
    ["Blocked ", "blocked_"],
  ])("%j is written %j, a name the service takes", (typed, written) => {
    expect(listNameAsTyped(typed)).toBe(written);
    expect(LIST_NAME_PATTERN.test(written)).toBe(true);
  });

  it("leaves other characters for the field's format check to point at", () => {
    expect(listNameAsTyped("Émails!")).toBe("émails!");
    expect(LIST_NAME_PATTERN.test(listNameAsTyped("Émails!"))).toBe(false);
  });
});
