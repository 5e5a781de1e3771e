"use client";
// The lockfile scan's form: the text (pasted or read from a chosen file), the format (detected unless chosen), what
// the scan will cost and whether it can run, and the button that runs it. Nothing here spends a unit.
import Link from "next/link";
import { useState } from "react";
import {
  FORMAT_FILE_NAMES,
  LOCKFILE_FORMATS,
  type LockfileFormat,
} from "../../../server/vulnerabilities/lockfiles/types";
import { useRefusalAtField } from "../_components/field-problem";
import { ScanErrorNote } from "./ScanErrorNote";
import type { Outcome, ScanPreview } from "./types";
import { BusyButton } from "../_components/BusyButton";

const n = (v: number) => v.toLocaleString("en-US");
const megabytes = (bytes: number) => `${n(Math.round(bytes / 100_000) / 10)} MB`;
const plural = (v: number, one: string, many: string) => `${n(v)} ${v === 1 ? one : many}`;
const formatLabel = (f: LockfileFormat) =>
  FORMAT_FILE_NAMES[f] + (f === "yarn-v1" ? " (v1)" : f === "yarn-berry" ? " (Berry)" : "");

function Cost({ preview }: { preview: ScanPreview }) {
  const [open, setOpen] = useState(false);
  const units = preview.packages;
  return (
    <>
      <p data-testid="scan-cost-summary">
        {preview.file}: <strong>{plural(units, "package version", "package versions")}</strong> ·{" "}
        <strong data-testid="scan-units">{plural(units, "unit", "units")}</strong> ·{" "}
        <span className="muted">{n(preview.unitsRemaining)} left this month</span>
      </p>
      {preview.skipped.length > 0 ? (
        <div className="small">
          <button
            type="button"
            className="link-button"
            aria-expanded={open}
            onClick={() => setOpen(!open)}
            data-testid="scan-skipped-toggle"
          >
            {plural(preview.skipped.length, "dependency", "dependencies")} not scanned (no registry version, no cost)
          </button>
          {open ? (
            <ul className="scan-skipped" data-testid="scan-skipped">
              {preview.skipped.map((s, i) => (
                <li key={`${s.name}:${i}`}>
                  <strong>{s.name || s.spec}</strong> <code>{s.spec}</code>: {s.reason}
                  {s.line ? <span className="muted"> (line {s.line})</span> : null}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {preview.cannotRunReason ? (
        <p className="notice scan-blocked" data-testid="scan-blocked">
          {preview.cannotRunReason}{" "}
          {preview.bulkRequired || preview.packages > preview.unitsRemaining ? (
            <Link href="/dashboard/plan">See the plans</Link>
          ) : null}
        </p>
      ) : null}
    </>
  );
}

export function ScanForm(props: {
  text: string;
  format: LockfileFormat | "";
  /** The scan's limit on the lockfile, in bytes (the procedure's own, as on the API). */
  maxBytes: number;
  tooLargeBytes: number | null;
  preview: Outcome<ScanPreview> | null;
  checking: boolean;
  running: boolean;
  onText: (text: string) => void;
  onFile: (name: string, text: string) => void;
  onFormat: (format: LockfileFormat | "") => void;
  /** The project to keep the scan in ("" for none), and what is wrong with it (the API's name rule). */
  project: string;
  projectError: string | null;
  onProject: (project: string) => void;
  onRun: () => void;
}) {
  const { preview } = props;
  const [fileError, setFileError] = useState<string | null>(null);
  // The file's check runs as it is typed or chosen: its refusal marks the field, and leaves focus where it is.
  const refusal = useRefusalAtField(preview && !preview.ok ? preview.error : null, {
    labels: { lockfile: "Lockfile or SBOM", format: "Format" },
    main: "lockfile",
    focus: false,
  });
  const ready = preview?.ok && preview.data.canRun && !props.projectError ? preview.data : null;

  const onFile = async (file: File | undefined) => {
    setFileError(null);
    if (!file) return;
    // A file past the limit is not even read into the page.
    if (file.size > props.maxBytes) {
      setFileError(
        `${file.name} is larger than ${megabytes(props.maxBytes)}, the most a scan takes. Split it and scan the parts.`,
      );
      return;
    }
    props.onFile(file.name, await file.text());
  };

  return (
    <section className="card" data-testid="scan-panel" aria-labelledby="scan-title">
      <h2 id="scan-title">Scan a lockfile</h2>
      <p className="small muted">
        package-lock.json, npm-shrinkwrap.json, yarn.lock, pnpm-lock.yaml, requirements.txt, poetry.lock, Pipfile.lock,
        composer.lock, go.sum, go.mod, or a CycloneDX or SPDX SBOM (JSON). One unit per distinct package version; git,
        file and workspace dependencies are listed but not scanned and cost nothing.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (ready && !props.running) props.onRun();
        }}
      >
        <label>
          Lockfile or SBOM
          <textarea
            name="lockfile"
            value={props.text}
            rows={8}
            spellCheck={false}
            placeholder="Paste the file here, or choose it below"
            onChange={(e) => props.onText(e.target.value)}
            data-testid="scan-text"
            {...refusal.fieldProps("lockfile")}
          />
        </label>
        <div className="form-row scan-options">
          <label>
            Or choose a file
            <input
              type="file"
              name="lockfile-file"
              accept=".json,.lock,.yaml,.yml,.txt,.sum,.mod"
              onChange={(e) => void onFile(e.target.files?.[0])}
              data-testid="scan-file"
            />
          </label>
          <label>
            Format
            <select
              name="format"
              value={props.format}
              onChange={(e) => props.onFormat(e.target.value as LockfileFormat | "")}
              {...refusal.fieldProps("format")}
            >
              <option value="">Detect from the content</option>
              {LOCKFILE_FORMATS.map((f) => (
                <option key={f} value={f}>
                  {formatLabel(f)}
                </option>
              ))}
            </select>
          </label>
        </div>
        <label className="scan-project">
          Project <span className="muted">(optional)</span>
          <input
            name="project"
            value={props.project}
            placeholder="acme/web"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={props.projectError ? true : undefined}
            aria-describedby="scan-project-hint"
            onChange={(e) => props.onProject(e.target.value)}
            data-testid="scan-project"
          />
          <span id="scan-project-hint" className={props.projectError ? "error small" : "small muted"}>
            {props.projectError ??
              "Keep this scan in the project's history and see what it adds and fixes since the project's last scan. No extra unit."}
          </span>
        </label>
        {fileError ? (
          <p className="error" role="alert">
            {fileError}
          </p>
        ) : null}
        <div className="scan-cost" aria-live="polite" data-testid="scan-cost">
          {!props.text.trim() ? (
            <p className="muted small">Paste a lockfile or choose one to see what it costs.</p>
          ) : null}
          {props.tooLargeBytes !== null ? (
            <p className="error" data-testid="scan-too-large">
              This file is {(props.tooLargeBytes / 1_000_000).toFixed(1)} MB; a scan takes lockfiles up to{" "}
              {megabytes(props.maxBytes)} ({n(props.maxBytes)} bytes), here as through the API. Split it and scan the
              parts.
            </p>
          ) : null}
          {props.checking ? <p className="muted small">Reading the file…</p> : null}
          {preview && !preview.ok ? (
            <ScanErrorNote error={preview.error} testId="scan-preview-error" id={refusal.noteId} />
          ) : null}
          {preview && preview.ok ? <Cost preview={preview.data} /> : null}
        </div>
        <div className="row">
          <BusyButton
            type="submit"
            className="btn btn-primary"
            disabled={!ready}
            busy={props.running}
            busyLabel="Scanning…"
            data-testid="run-scan"
          >
            {ready
              ? `Scan ${plural(ready.packages, "package", "packages")} (${plural(ready.packages, "unit", "units")})`
              : "Scan"}
          </BusyButton>
          {props.running && ready ? (
            <span className="small muted" role="status">
              Checking {plural(ready.packages, "package version", "package versions")} against the advisory database and
              the registries…
            </span>
          ) : null}
        </div>
      </form>
    </section>
  );
}
