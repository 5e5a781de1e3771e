// Dashboard messages never name an API route (issue 42, item 16): the server's "Create it first (POST /v1/lists)"
// reads "Create it first on the Lists page" in the dashboard; a route without a page is dropped, not shown.
import { describe, expect, it } from "vitest";
import { dashboardMessage } from "../../app/dashboard/_components/dashboard-words";

describe("dashboard words", () => {
  it("says which page to use instead of which route to call", () => {
    expect(
      dashboardMessage(
        'The expression names a list this workspace does not have: "blocked". Create it first (POST /v1/lists).',
      ),
    ).toBe('The expression names a list this workspace does not have: "blocked". Create it first on the Lists page.');
    expect(dashboardMessage("Label it with POST /assess/{request_id}/outcome.")).toBe(
      "Label it with the Assess an event page.",
    );
  });

  it("drops a route in parentheses that no page stands for, and leaves other messages as they are", () => {
    expect(dashboardMessage("Nothing to do here (GET /v1/openapi.json).")).toBe("Nothing to do here.");
    expect(dashboardMessage("until must be after since.")).toBe("until must be after since.");
    expect(dashboardMessage("A list named constructor (POST /v1/constructor)")).toBe("A list named constructor");
  });
});
