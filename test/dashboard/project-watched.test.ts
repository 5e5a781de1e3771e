// A watched project says how its monitor runs: at the monitor's own interval (one made through the API or edited on
// its page may run hourly or weekly), and paused when the plan no longer holds it. It said "Watched daily" for a
// monitor that ran every hour.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { WatchedNote } from "../../app/dashboard/projects/WatchToggle";

const words = (monitor: { id: string; interval: string; status: string }) =>
  renderToStaticMarkup(createElement(WatchedNote, { monitor }))
    .replace(/<[^>]+>/g, "")
    .replace(/\s+/g, " ");

describe("a watched project's note", () => {
  it.each([
    ["1h", "Watched every hour:"],
    ["6h", "Watched every 6 hours:"],
    ["24h", "Watched every day:"],
    ["7d", "Watched every week:"],
  ])("says the monitor's interval %s", (interval, said) => {
    const text = words({ id: "mon_1", interval, status: "active" });
    expect(text.startsWith(said)).toBe(true);
    expect(text).toContain("Its monitor");
    expect(text).not.toContain("daily");
  });

  it("says a paused monitor does not run", () => {
    const text = words({ id: "mon_1", interval: "24h", status: "paused" });
    expect(text).toMatch(/^Watched, but paused: .* does not run until the plan holds it\. Its monitor$/);
  });

  it("links to the monitor", () => {
    const html = renderToStaticMarkup(
      createElement(WatchedNote, { monitor: { id: "mon_7", interval: "1h", status: "active" } }),
    );
    expect(html).toContain('href="/dashboard/monitors/mon_7"');
  });
});
