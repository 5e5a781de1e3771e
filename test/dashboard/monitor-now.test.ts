// A monitor's "Now" agrees with its last run: a check that run could not make says "Could not check" with the
// reason and the time (it said "Not run yet" after a charged run whose timeline said "could not check").
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CheckStates } from "../../app/dashboard/monitors/CheckStates";

const text = (html: string) => html.replace(/<[^>]+>/g, "");

describe("the Now card of a monitor", () => {
  it("says a check could not be made on the last run, why and when, instead of Not run yet", () => {
    const html = renderToStaticMarkup(
      createElement(CheckStates, {
        checks: [{ type: "email_security" }],
        states: {},
        ranBefore: true,
        lastRun: {
          at: "2026-11-28T19:05:00.000Z",
          results: { email_security: { error: { message: "The DNS servers did not answer." } } },
        },
        detailed: true,
      }),
    );
    expect(text(html)).toBe("Email security: Could not check — The DNS servers did not answer (2026-11-28 19:05 UTC)");
    expect(html).not.toContain("Not run yet");
    expect(html).toContain('data-severity="failed"');
  });

  it("keeps the state from before a failed run beside it, as the state from before", () => {
    const html = renderToStaticMarkup(
      createElement(CheckStates, {
        checks: [{ type: "reachability" }],
        states: { reachability: { severity: "ok", state: { online: true } } },
        lastRun: { at: "2026-11-28T19:05:00.000Z", results: { reachability: { error: { message: "Timed out" } } } },
        detailed: true,
      }),
    );
    expect(text(html)).toBe(
      "Reachability: Could not check — Timed out (2026-11-28 19:05 UTC); before that: OK, online",
    );
  });

  it("says Not run yet only before the first run, and No result yet after one that left no state", () => {
    const render = (ranBefore: boolean) =>
      text(
        renderToStaticMarkup(
          createElement(CheckStates, { checks: [{ type: "dns" }], states: {}, ranBefore, lastRun: null }),
        ),
      );
    expect(render(false)).toBe("DNS records: Not run yet");
    expect(render(true)).toBe("DNS records: No result yet");
  });

  it("shows the check's state when the last run made it", () => {
    const html = renderToStaticMarkup(
      createElement(CheckStates, {
        checks: [{ type: "reachability" }],
        states: { reachability: { severity: "critical", state: { online: false } } },
        lastRun: { at: "2026-11-28T19:05:00.000Z", results: { reachability: { error: null } } },
        detailed: true,
      }),
    );
    expect(text(html)).toBe("Reachability: Problem — offline");
  });
});
