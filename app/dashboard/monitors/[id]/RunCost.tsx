// What "Run now" costs, said before the button is pressed: the monitor's own `units_per_run`, which for a project
// monitor is one unit per package version of the project's latest default-ref scan, not one per check (the page said
// "1 unit (one per check)" for a project monitor whose runs cost 3).
export function RunCost({ monitor }: { monitor: { checks: { type: string }[]; units_per_run: number } }) {
  const units = monitor.units_per_run;
  const basis = monitor.checks.some((c) => c.type === "project")
    ? "one per package version of the project's latest default-ref scan"
    : "one per check";
  return (
    <p id="run-cost" className="muted small">
      Running now costs {units} {units === 1 ? "unit" : "units"} ({basis}), like a scheduled run; the schedule does not
      move.
    </p>
  );
}
