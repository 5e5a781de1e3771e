"use client";
// Bulk jobs from the dashboard: the new-job form, the open job's progress and results, and the list of the
// workspace's jobs, each in its own file beside this one. The same procedures as /v1/jobs.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { BULK_PLANS as bulkPlans, describePlans } from "../../../server/api/contract-text";
import { errorCode } from "../_components/ErrorNote";
import { useTRPC } from "../_components/trpc";
import { PlanGate } from "../_components/PlanGate";
import { BulkForm } from "./BulkForm";
import { BulkJob } from "./BulkJob";
import { BulkJobList } from "./BulkJobList";
import { MAX_TARGETS } from "./bulk-text";
import "./bulk.css";

/** Which plans have bulk jobs, from the plan catalog. */
const BULK_PLANS = `need ${describePlans(bulkPlans())}`;

export function BulkView() {
  const trpc = useTRPC();
  // The list's own query (the same one BulkJobList reads): a workspace without bulk jobs sees the plan notice.
  const jobs = useQuery(trpc.jobs.list.queryOptions({ limit: 20 }));
  const [openId, setOpenId] = useState<string | null>(null);
  // The job just closed: the list puts the keyboard's focus on its Open button (the closed panel had the focus).
  const [closedId, setClosedId] = useState<string | null>(null);
  const open = (id: string) => (setClosedId(null), setOpenId(id));

  if (errorCode(jobs.error) === "BULK_LOOKUPS_REQUIRED") {
    return (
      <>
        <h1>Bulk jobs</h1>
        <PlanGate feature="Bulk jobs" plans={BULK_PLANS} />
      </>
    );
  }

  return (
    <>
      <h1>Bulk jobs</h1>
      <p className="muted small">
        Up to {MAX_TARGETS} lookups in one job: IP addresses, CIDR ranges, AS numbers, domains, email addresses, URLs,
        CVE ids and package URLs, mixed if you like. The whole cost is reserved when the job starts; targets that never
        run (cancelled, or refused before they ran) and targets no source could answer give their units back.
      </p>

      <BulkForm onStarted={open} />

      {openId ? <BulkJob id={openId} onClose={() => (setClosedId(openId), setOpenId(null))} /> : null}

      <BulkJobList onOpen={open} focusJob={closedId} onFocused={() => setClosedId(null)} />
    </>
  );
}
