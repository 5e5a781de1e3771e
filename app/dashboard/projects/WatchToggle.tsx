"use client";
// Watching a project: a monitor of the project check (checks ["project"], created daily), created or deleted here. The cost
// is said before it is created, as the monitor form says it: one unit per package version of the project's latest
// default-ref scan, every run (monitors.estimate).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { ErrorNote, ReadFailed } from "../_components/ErrorNote";
import { isPlanRefusal } from "../_components/PlanGate";
import { useTRPC } from "../_components/trpc";
import { INTERVAL_WORDS } from "../../../server/monitors/state-words";
import { BusyButton } from "../_components/BusyButton";

const fmt = (n: number) => n.toLocaleString("en-US");

/** A monitor's label is at most 100 characters and a project's name up to 140: a longer label is left out, and the
 * monitors list then shows the monitor by its target, the project's name. */
const MONITOR_NAME_MAX = 100;
const labelOf = (project: string) =>
  `Project ${project}`.length <= MONITOR_NAME_MAX ? { name: `Project ${project}` } : {};

/**
 * How the project is watched, in its monitor's own terms: the interval it runs at (a monitor made through the API or
 * edited on its page may run hourly or weekly, not daily as the toggle creates it) and whether it is paused.
 */
export function WatchedNote({ monitor }: { monitor: { id: string; interval: string; status: string } }) {
  return (
    <p className="small" data-testid="watched">
      {monitor.status === "paused" ? (
        <>
          <strong>Watched, but paused</strong>: the workspace has more monitors than its plan holds, so this one does
          not run until the plan holds it.
        </>
      ) : (
        <>
          <strong>Watched</strong> {INTERVAL_WORDS[monitor.interval] ?? `every ${monitor.interval}`}: a new advisory or
          malware report on a version this project ships alerts by webhook and email (what it had when watching began is
          the baseline, not alerted).
        </>
      )}{" "}
      <Link href={`/dashboard/monitors/${monitor.id}`}>Its monitor</Link>
    </p>
  );
}

export function WatchToggle(props: {
  name: string;
  monitor: { id: string; interval: string; status: string } | null;
  hasDefaultRef: boolean;
}) {
  const trpc = useTRPC();
  const client = useQueryClient();
  const estimate = useQuery({
    ...trpc.monitors.estimate.queryOptions({ checks: 1, interval: "24h", project: props.name }),
    enabled: !props.monitor && props.hasDefaultRef,
  });
  const refresh = () => client.invalidateQueries({ queryKey: trpc.projects.get.queryKey({ name: props.name }) });
  const watch = useMutation(trpc.monitors.create.mutationOptions({ onSuccess: refresh }));
  const unwatch = useMutation(trpc.monitors.delete.mutationOptions({ onSuccess: refresh }));
  const error = watch.error ?? unwatch.error;

  if (isPlanRefusal(estimate.error) || isPlanRefusal(watch.error))
    return (
      <p className="muted small" data-testid="watch-plan">
        Watching a project is a monitor: monitors need a Suite or Lookups plan that includes them.
      </p>
    );
  if (props.monitor)
    return (
      <div className="watch" data-testid="watch">
        <WatchedNote monitor={props.monitor} />
        <BusyButton
          type="button"
          className="btn"
          busy={unwatch.isPending}
          onClick={() => unwatch.mutate({ id: props.monitor!.id })}
          data-testid="watch-toggle"
        >
          Stop watching
        </BusyButton>
        <ErrorNote error={error} />
      </div>
    );
  if (!props.hasDefaultRef)
    return (
      <p className="muted small" data-testid="watch-needs-default">
        Scan the project without a <code>ref</code> (its default ref) to watch it: the watch re-checks that package
        list.
      </p>
    );
  const units = estimate.data?.units_per_run;
  return (
    <div className="watch" data-testid="watch">
      <p className="small">
        Re-check the default ref&apos;s packages every day against fresh advisories and malware reports, and alert on
        what is new. What the project has when you start watching is the baseline and is not alerted: its open findings
        are listed below.{" "}
        {units !== undefined && estimate.data ? (
          <span data-testid="watch-cost">
            Costs {fmt(units)} unit{units === 1 ? "" : "s"} a run, about {fmt(estimate.data.units_per_month)} a month.
          </span>
        ) : null}
      </p>
      <BusyButton
        type="button"
        className="btn btn-primary"
        busy={watch.isPending}
        onClick={() =>
          watch.mutate({ ...labelOf(props.name), target: props.name, checks: ["project"], interval: "24h" })
        }
        data-testid="watch-toggle"
      >
        Watch this project
      </BusyButton>
      <ReadFailed what="The watch's cost" query={estimate} />
      <ErrorNote error={error} />
    </div>
  );
}
