"use client";
// New and fixed findings over time: a project's scans summed by UTC day, drawn as the analytics charts draw counts
// (with the same numbers as a table behind "Show as table").
import type { ProjectScanSummary } from "../../../server/projects/schemas";
import { DailyStackedChart } from "../analytics/charts";

const SERIES = [
  { key: "new", label: "New", color: "#dc2626" },
  { key: "fixed", label: "Fixed", color: "#16a34a" },
];

export function FindingsChart({ scans }: { scans: ProjectScanSummary[] }) {
  const byDay = new Map<string, { new: number; fixed: number }>();
  for (const s of scans) {
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
      title="New and fixed findings"
      unit="findings"
      days={days}
      series={SERIES}
      emptyText="No scan has added or fixed a finding yet."
      height={180}
      nested
    />
  );
}
