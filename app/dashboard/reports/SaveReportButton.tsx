"use client";
// "Save report" on any result (an assessment, a console lookup, a bulk item, a scan): one click saves the result
// as shown, under a title made from what was looked up, for one unit; then the saved report is one link away.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef } from "react";
import { ErrorNote } from "../_components/ErrorNote";
import { useTRPC } from "../_components/trpc";
import { BusyButton } from "../_components/BusyButton";

export function SaveReportButton({
  report,
  title,
  requestId,
}: {
  report: unknown;
  title: string;
  requestId?: string | null;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const save = useMutation(
    trpc.reports.create.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.reports.list.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.workspace.pathKey() });
      },
    }),
  );
  // The button is replaced by the saved note: the keyboard's focus moves to its link rather than to the page's top.
  const openLink = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    if (save.data) openLink.current?.focus();
  }, [save.data]);
  const body =
    report && typeof report === "object" && !Array.isArray(report)
      ? (report as Record<string, unknown>)
      : { value: report ?? null };
  return (
    <span className="save-report" data-testid="save-report">
      {save.data ? (
        <span className="muted small" role="status">
          Saved.{" "}
          <Link ref={openLink} href={`/dashboard/reports?open=${encodeURIComponent(save.data.id)}`}>
            Open the report
          </Link>
        </span>
      ) : (
        <BusyButton
          type="button"
          className="btn btn-ghost"
          busy={save.isPending}
          busyLabel="Saving…"
          onClick={() =>
            save.mutate({
              title: title.trim().slice(0, 200) || "Saved result",
              report: body,
              request_id: requestId || undefined,
            })
          }
        >
          Save report (1 unit)
        </BusyButton>
      )}
      <ErrorNote error={save.error} />
    </span>
  );
}
