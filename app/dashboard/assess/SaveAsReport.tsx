"use client";
// Saves the assessment as a fraud report: the whole result (signals with reasons and sources, rules, facts), so
// the saved report reopens as the same answer. Saving costs one unit, like POST /api/account/reports.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import type { AssessResult } from "../../../server/assessment/schemas";
import { ErrorNote } from "../_components/ErrorNote";
import { useTRPC } from "../_components/trpc";
import { BusyButton } from "../_components/BusyButton";

export function SaveAsReport({ result }: { result: AssessResult }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(
    `${result.event} ${result.email?.address ?? result.ip.address}: ${result.risk_level} risk (${result.score})`,
  );
  const save = useMutation(
    trpc.reports.create.mutationOptions({
      // pathKey covers the reports list's infinite query as well as plain queries.
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.reports.list.pathKey() }),
    }),
  );
  // The form (and its button, which had the focus) is replaced by the saved note: the keyboard's focus moves to the
  // note's link rather than to the page's top, as SaveReportButton does.
  const openLink = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    if (save.data) openLink.current?.focus();
  }, [save.data]);
  if (save.data) {
    return (
      <p className="notice" role="status" data-testid="report-saved">
        Saved as the report “{save.data.title}”.{" "}
        <Link ref={openLink} href={`/dashboard/reports?open=${save.data.id}`}>
          Open it in saved reports
        </Link>
      </p>
    );
  }
  return (
    <form
      className="card form-row"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({
          title: title.trim(),
          report: result as unknown as Record<string, unknown>,
          request_id: result.request_id,
        });
      }}
    >
      <label className="grow">
        Report title
        <input name="report-title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} required />
      </label>
      <BusyButton type="submit" className="btn" disabled={!title.trim()} busy={save.isPending}>
        Save report (1 unit)
      </BusyButton>
      <ErrorNote error={save.error} />
    </form>
  );
}
