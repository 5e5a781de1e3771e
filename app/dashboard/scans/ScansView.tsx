"use client";
// Scan a site, then show its grade card, every test with its fix, the host's history and the badge snippet; below,
// every site the workspace has scanned. A scan that outlasts the server's wait comes back as "running" and is polled
// until it finishes.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { ScanView } from "../../../server/site-scans/schemas";
import { ErrorNote, ReadFailed } from "../_components/ErrorNote";
import { useRefusalAtField } from "../_components/field-problem";
import { inFormWords } from "../_components/field-words";
import { useTRPC } from "../_components/trpc";
import { BadgeSnippet } from "./BadgeSnippet";
import { WatchHostLink } from "../monitors/WatchHostLink";
import { GradeCard } from "./GradeCard";
import { ScanHistory } from "./ScanHistory";
import { ScannedHosts } from "./ScannedHosts";
import { ScanTests } from "./ScanTests";
import { SaveReportButton } from "../reports/SaveReportButton";
import { BusyButton } from "../_components/BusyButton";

/** The form's fields as it labels them: "url: must be an http(s) URL or a host name …" is said of the Site. */
const SCAN_LABELS: Record<string, string> = { url: "Site", visibility: "Visibility" };

const VISIBILITY_HINT: Record<string, string> = {
  private: "Only this workspace can see it.",
  unlisted: "Anyone with its id can read it; never on badges or the leaderboard.",
  public: "Shown on the host's badge and may appear on the public leaderboard.",
};

export function ScansView({ cost }: { cost: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [url, setUrl] = useState("");
  const [visibility, setVisibility] = useState<"private" | "unlisted" | "public">("private");
  const create = useMutation(
    trpc.scans.create.mutationOptions({
      onSettled: () => void queryClient.invalidateQueries({ queryKey: trpc.account.pathKey() }),
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.scans.pathKey() }),
    }),
  );
  const refusal = useRefusalAtField(create.error, { labels: SCAN_LABELS, main: "url" });
  const started = create.data;
  const poll = useQuery({
    ...trpc.scans.get.queryOptions({ id: started?.id ?? "" }),
    enabled: started?.status === "running",
    refetchInterval: (q) => (q.state.data?.status === "running" ? 1000 : false),
  });
  const scan: ScanView | undefined = started?.status === "running" ? (poll.data ?? started) : started;

  return (
    <>
      <form
        className="card scan-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (url.trim()) create.mutate({ url: url.trim(), visibility });
        }}
      >
        <div className="scan-fields">
          <div className="field">
            <label htmlFor="scan-url">Site</label>
            <input
              id="scan-url"
              name="url"
              type="text"
              inputMode="url"
              placeholder="example.com or https://example.com/"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              required
              autoComplete="url"
              {...refusal.fieldProps("url")}
            />
          </div>
          <div className="field">
            <label htmlFor="scan-visibility">Visibility</label>
            <select
              id="scan-visibility"
              value={visibility}
              onChange={(e) => setVisibility(e.target.value as typeof visibility)}
              {...refusal.fieldProps("visibility", "scan-visibility-hint")}
            >
              <option value="private">Private</option>
              <option value="unlisted">Unlisted</option>
              <option value="public">Public</option>
            </select>
            <span className="muted small" id="scan-visibility-hint">
              {VISIBILITY_HINT[visibility]}
            </span>
          </div>
        </div>
        <div className="row">
          <BusyButton type="submit" className="btn btn-primary" busy={create.isPending} busyLabel="Scanning…">
            Scan
          </BusyButton>
          <span className="cost">{cost}</span>
        </div>
      </form>
      <ErrorNote error={create.error} words={(m) => inFormWords(m, SCAN_LABELS)} id={refusal.noteId} />
      {create.isPending ? (
        <p className="muted" role="status">
          Scanning: headers, redirects, TLS, DNS and mail records…
        </p>
      ) : null}
      {scan?.status === "running" && poll.error ? (
        <ReadFailed what="The scan's progress" query={poll} />
      ) : scan?.status === "running" ? (
        <p className="muted" role="status">
          The scan is still running; this page updates when it finishes.
        </p>
      ) : null}
      {scan && scan.status !== "running" ? (
        <section className="scan-result" data-testid="scan-result">
          <GradeCard scan={scan} />
          <WatchHostLink
            target={scan.url}
            checks={scan.url.startsWith("https:") ? ["scan", "tls", "reachability"] : ["scan", "reachability"]}
          />
          {scan.tests ? <ScanTests tests={scan.tests} /> : null}
          <BadgeSnippet host={scan.host} visibility={scan.visibility} />
          <SaveReportButton report={scan} title={`Scan of ${scan.host}`} />
        </section>
      ) : null}
      {scan ? <ScanHistory host={scan.host} /> : null}
      <ScannedHosts current={scan?.host ?? null} onScanAgain={(host) => setUrl(host)} />
    </>
  );
}
