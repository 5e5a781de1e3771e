"use client";
// "Scan a lockfile": paste or upload a lockfile or SBOM, see what the scan costs (read on the server by
// vulnerabilities.scanPreview, never charged) before running it, then the report. The scan is the same procedure as
// POST /v1/vulnerabilities/scan, run through the page's metered-lookup hook so the usage meter follows.
import { useEffect, useMemo, useRef, useState } from "react";
import type { LockfileFormat } from "../../../server/vulnerabilities/lockfiles/types";
import { PROJECT_NAME, PROJECT_NAME_MAX, PROJECT_NAME_PARTS } from "../../../clients/cli/src/project-name";
import { useTRPCClient } from "../_components/trpc";
import { utf8Bytes } from "./lockfile-size";
import { ScanErrorNote } from "./ScanErrorNote";
import { ScanForm } from "./ScanForm";
import { ScanResult } from "./ScanResult";
import { SavedToProject } from "./SavedToProject";
import type { Outcome, ScanPreview } from "./types";
import type { useMeteredLookup } from "./useMeteredLookup";

type ScanInput = { lockfile: string; format?: LockfileFormat };
type ScanAnswer = Awaited<ReturnType<ReturnType<typeof useTRPCClient>["vulnerabilities"]["scan"]["mutate"]>>;
type ProjectAnswer = Exclude<ScanAnswer, string>;

/** What is wrong with a project name, by the API's own rule (clients/cli/src/project-name.ts); null when it is fine. */
export function projectNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed || PROJECT_NAME.test(trimmed)) return null;
  return `A project name is 1 to ${PROJECT_NAME_MAX} letters, digits and . _ / - ${PROJECT_NAME_PARTS}, such as acme/web.`;
}

/**
 * `maxBytes` is the scan procedure's own limit on the lockfile (its meta, read by the page on the server): the same
 * rule as POST /v1/vulnerabilities/scan, whose body is the lockfile; the dashboard endpoint gives the field that room.
 */
export function ScanPanel({ lookup, maxBytes }: { lookup: ReturnType<typeof useMeteredLookup>; maxBytes: number }) {
  const client = useTRPCClient();
  const [text, setText] = useState("");
  const [format, setFormat] = useState<LockfileFormat | "">("");
  const [fileName, setFileName] = useState<string | null>(null);
  const [preview, setPreview] = useState<{ input: ScanInput; outcome: Outcome<ScanPreview> } | null>(null);
  const [refreshed, setRefreshed] = useState(0);
  const [project, setProject] = useState("");
  const projectError = projectNameProblem(project);
  const [result, setResult] = useState<{
    outcome: Outcome<ProjectAnswer>;
    fileName: string | null;
    input: ScanInput;
  } | null>(null);
  const asked = useRef(0);

  const input: ScanInput = { lockfile: text, ...(format ? { format } : {}) };
  const empty = !text.trim();
  const size = useMemo(() => (text.trim() ? utf8Bytes(text) : 0), [text]);
  const tooLarge = size > maxBytes;

  // What the text would cost, asked a moment after the last change; an answer for older text is dropped.
  useEffect(() => {
    const id = ++asked.current;
    if (empty || tooLarge) {
      setPreview(null);
      return;
    }
    const t = setTimeout(async () => {
      let outcome: Outcome<ScanPreview>;
      try {
        outcome = { ok: true, data: await client.vulnerabilities.scanPreview.mutate(input) };
      } catch (error) {
        outcome = { ok: false, error };
      }
      if (id === asked.current) setPreview({ input, outcome });
    }, 350);
    return () => clearTimeout(t);
    // The text and format restart the check; `refreshed` asks again after a scan used units.
  }, [text, format, refreshed]);

  const isCurrent = (of: ScanInput) => of.lockfile === text && of.format === input.format;
  const current = preview && isCurrent(preview.input) ? preview : null;
  // A failed scan's reason belongs to the text it was for: once the text or format changes, only the new text's own
  // check speaks (an outage or refusal of the earlier file beside it read as this file's). A report stays, under
  // its own heading, which names its file and when it was checked.
  const failure = result && !result.outcome.ok && isCurrent(result.input) ? result.outcome : null;

  async function runScan() {
    if (!current?.outcome.ok || !current.outcome.data.canRun || lookup.running) return;
    if (projectError) return;
    const sent = current.input;
    const name = project.trim();
    const outcome = await lookup.run(() =>
      client.vulnerabilities.scan.mutate(name ? { ...sent, project: name } : sent),
    );
    // The dashboard never asks for SARIF or CSV, so the answer is the JSON report; a string would be a server slip.
    const report: Outcome<ProjectAnswer> =
      outcome.ok && typeof outcome.data === "string"
        ? { ok: false, error: { message: "The scan answered in a form this page cannot read." } }
        : (outcome as Outcome<ProjectAnswer>);
    setResult({ outcome: report, fileName, input: sent });
    setRefreshed((n) => n + 1);
  }

  return (
    <>
      <ScanForm
        text={text}
        format={format}
        maxBytes={maxBytes}
        tooLargeBytes={tooLarge ? size : null}
        preview={current?.outcome ?? null}
        checking={!empty && !tooLarge && !current}
        running={lookup.running}
        onText={(value) => {
          setText(value);
          if (!value.trim()) setFileName(null);
        }}
        onFile={(name, value) => {
          setFileName(name);
          setText(value);
        }}
        onFormat={setFormat}
        project={project}
        projectError={projectError}
        onProject={setProject}
        onRun={() => void runScan()}
      />
      {failure ? <ScanErrorNote error={failure.error} units={failure.units} /> : null}
      {result && result.outcome.ok && result.outcome.data.project && result.outcome.data.diff ? (
        <SavedToProject
          key={result.outcome.data.project.scan_id}
          kept={result.outcome.data.project}
          diff={result.outcome.data.diff}
        />
      ) : null}
      {result && result.outcome.ok ? (
        <ScanResult
          key={result.outcome.data.checkedAt}
          report={result.outcome.data}
          fileName={result.fileName}
          stale={lookup.running}
        />
      ) : null}
    </>
  );
}
