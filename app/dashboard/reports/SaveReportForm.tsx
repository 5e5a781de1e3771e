"use client";
// Saves a fraud report (1 unit, Suite or Lookups): an assessment loaded from the workspace's investigation events
// by its request id (an unmetered read), shown as a readable preview before saving; pasting JSON is the fallback.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { ErrorNote } from "../_components/ErrorNote";
import { useTRPC, useTRPCClient } from "../_components/trpc";
import { ReportBody } from "./ReportBody";
import { BusyButton } from "../_components/BusyButton";

export function SaveReportForm() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState("");
  const [requestId, setRequestId] = useState("");
  const [json, setJson] = useState("");
  const [note, setNote] = useState<string | null>(null);
  // The request id that found no assessment: what it means and what to do, in place of the preview.
  const [missing, setMissing] = useState<string | null>(null);
  const save = useMutation(
    trpc.reports.create.mutationOptions({
      onSuccess: () => {
        setTitle("");
        setJson("");
        setRequestId("");
        // pathKey, not queryKey(): the list is an infinite query, whose key queryKey() does not match.
        void queryClient.invalidateQueries({ queryKey: trpc.reports.list.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.account.overview.queryKey() });
      },
    }),
  );
  const load = useMutation({
    mutationFn: () => client.workspace.events.query({ query: requestId.trim(), limit: 1 }),
    onSuccess: (page) => {
      // The events search also matches addresses, emails, rules and types: only the event of this request id loads
      // (an IP address typed here found that address's newest event, of another request).
      const event = page.items.find((e) => e.requestId === requestId.trim());
      setNote(null);
      if (!event) return setMissing(requestId.trim());
      setMissing(null);
      setJson(JSON.stringify(event.data, null, 2));
      if (!title) setTitle(`${event.type} ${event.email ?? event.ip ?? event.domain ?? event.requestId}`.slice(0, 200));
    },
  });

  // The saved form empties, which disables its button and drops the focus to the page's top: the line saying what
  // was saved takes it (the report is then the list's newest row).
  const savedLine = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (save.data) savedLine.current?.focus();
  }, [save.data]);

  const preview = parsed(json);

  function submit() {
    let report: unknown;
    try {
      report = JSON.parse(json);
    } catch {
      return setNote("The report must be valid JSON.");
    }
    if (!report || typeof report !== "object" || Array.isArray(report))
      return setNote("The report must be a JSON object.");
    setNote(null);
    save.mutate({ title, report: report as Record<string, unknown>, request_id: requestId.trim() || undefined });
  }

  return (
    <form
      className="card"
      data-testid="save-report-form"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="form-row">
        <label>
          Title
          <input
            name="title"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            maxLength={200}
            required
            placeholder="Suspicious checkout"
          />
        </label>
        <label>
          Request id (optional)
          <input
            name="requestId"
            value={requestId}
            onChange={(e) => setRequestId(e.target.value)}
            maxLength={100}
            placeholder="req_…"
          />
        </label>
        <BusyButton
          type="button"
          className="btn"
          disabled={!requestId.trim()}
          busy={load.isPending}
          onClick={() => load.mutate()}
        >
          Load assessment
        </BusyButton>
      </div>
      {missing ? (
        <div className="notice" role="alert" data-testid="report-not-found">
          <p>
            No assessment with the request id <strong className="break">{missing}</strong> was found in this workspace.
          </p>
          <p className="small">
            Check that the whole id was copied (it is in the assessment&apos;s answer, and on the{" "}
            <Link href="/dashboard/events">Events</Link> page, where you can search for it), that the assessment was
            made in this workspace, and that it is recent: old events are removed after a while. You can also paste the
            report as JSON below.
          </p>
        </div>
      ) : null}
      {preview ? (
        <div data-testid="report-preview">
          <p className="muted small">Preview of the report to save:</p>
          <ReportBody report={preview} />
        </div>
      ) : null}
      <details>
        <summary className="small">Paste a report as JSON instead</summary>
        <label>
          Report (JSON object)
          <textarea
            name="report"
            value={json}
            onChange={(e) => setJson(e.target.value)}
            rows={8}
            style={{ width: "100%", fontFamily: "monospace" }}
          />
        </label>
      </details>
      <div className="form-row">
        <BusyButton
          type="submit"
          className="btn btn-primary"
          disabled={!title.trim() || !json.trim()}
          busy={save.isPending}
        >
          Save report (1 unit)
        </BusyButton>
      </div>
      {save.data ? (
        <p className="small" role="status" tabIndex={-1} ref={savedLine} data-testid="report-saved-line">
          Saved “{save.data.title}”: it is listed below.
        </p>
      ) : null}
      {note ? (
        <p className="error" role="alert">
          {note}
        </p>
      ) : null}
      <ErrorNote error={save.error ?? load.error} />
    </form>
  );
}

/** The pasted or loaded report as an object, or null while it is not a JSON object. */
function parsed(json: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(json);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
