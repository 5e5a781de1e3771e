"use client";
// New and fixed findings over time: the scans of the project's default ref summed by UTC day, drawn as the analytics
// charts draw counts (with the same numbers as a table behind "Show as table"). A pull request's scan is compared with
// the default ref and changes nothing in the project, so its new findings are not the project's: summing them made
// five pull requests' scans read as 30 new findings in a day for a project of six.
import { DEFAULT_REF } from "../../../clients/cli/src/project-name";
import type { ProjectScanSummary } from "../../../server/projects/schemas";
import { DailyStackedChart } from "../analytics/charts";

const SERIES = [
  { key: "new", label: "New", color: "#dc2626" },
  { key: "fixed", label: "Fixed", color: "#16a34a" },
];

export function FindingsChart({ scans }: { scans: ProjectScanSummary[] }) {
  const byDay = new Map<string, { new: number; fixed: number }>();
  for (const s of scans) {
    if (s.ref !== DEFAULT_REF) continue;
    const day = s.created_at.slice(0, 10);
    const d = byDay.get(day) ?? { new: 0, fixed: 0 };
    d.new += s.summary.new;
    d.fixed += s.summary.fixed;
    byDay.set(day, d);
  }
  const days = [...byDay.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([date, values]) => ({ date, values }));
  return (
    <DailyStackedChart
      id="project-findings"
      title="New and fixed findings on the default ref"
      unit="findings"
      days={days}
      series={SERIES}
      emptyText="No scan of the default ref has added or fixed a finding yet (pull requests' scans are compared with it, not counted here)."
      height={180}
      nested
    />
  );
}
