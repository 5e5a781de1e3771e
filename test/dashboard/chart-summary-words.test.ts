// A daily chart's spoken summary counts its days in English: a project whose default ref was scanned on one day read
// "3 findings over 1 days across 2 series" on the Projects page.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DailyStackedChart } from "../../app/dashboard/analytics/charts";

const summary = (dates: string[]) =>
  renderToStaticMarkup(
    createElement(DailyStackedChart, {
      id: "project-findings",
      title: "New and fixed findings on the default ref",
      unit: "findings",
      days: dates.map((date) => ({ date, values: { new: 3, fixed: 0 } })),
      series: [
        { key: "new", label: "New", color: "#dc2626" },
        { key: "fixed", label: "Fixed", color: "#16a34a" },
      ],
      emptyText: "No scan yet.",
    }),
  )
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");

describe("a daily chart's summary", () => {
  it("says one day, not 1 days", () => {
    expect(summary(["2026-11-29"])).toContain("3 findings over 1 day across 2 series (New, Fixed)");
  });

  it("says days for more than one", () => {
    expect(summary(["2026-11-28", "2026-11-29"])).toContain("6 findings over 2 days across 2 series");
  });
});
