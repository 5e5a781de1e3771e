"use client";
// Choose ecosystem, coordinate and version, see the cost, run the package report, page through its advisories.
import { useState } from "react";
import { useRefusalAtField } from "../_components/field-problem";
import { lookupPlanWords } from "../_components/PlanGate";
import { useTRPCClient } from "../_components/trpc";
import { LookupErrorNote } from "./LookupErrorNote";
import { PackageReportView } from "./PackageReportView";
import { ECOSYSTEM_CHOICES, type Outcome, type PackageReport, type PackageReportInput } from "./types";
import type { useMeteredLookup } from "./useMeteredLookup";
import { BusyButton } from "../_components/BusyButton";

type Ecosystem = PackageReportInput["ecosystem"];
const PAGE_SIZES = [10, 25, 50, 100];

/** The form's fields as it labels them: the API's "coordinate: …" is said of the Package field. */
const PACKAGE_LABELS: Record<string, string> = { ecosystem: "Ecosystem", coordinate: "Package", version: "Version" };

export function PackagePanel({ lookup }: { lookup: ReturnType<typeof useMeteredLookup> }) {
  const client = useTRPCClient();
  const [ecosystem, setEcosystem] = useState<Ecosystem>("npm");
  const [coordinate, setCoordinate] = useState("");
  const [version, setVersion] = useState("");
  const [limit, setLimit] = useState(25);
  const [lastInput, setLastInput] = useState<PackageReportInput | null>(null);
  const [outcome, setOutcome] = useState<Outcome<PackageReport> | null>(null);
  const refusal = useRefusalAtField(outcome && !outcome.ok ? outcome.error : null, {
    labels: PACKAGE_LABELS,
    main: "coordinate",
    byCode: { VERSION_NOT_FOUND: "version" },
  });
  const choice = ECOSYSTEM_CHOICES.find((c) => c.value === ecosystem) ?? ECOSYSTEM_CHOICES[0];

  async function runReport(input: PackageReportInput) {
    setLastInput(input);
    const result = await lookup.run(() => client.vulnerabilities.packageReport.query(input));
    setOutcome(result);
  }

  return (
    <>
      <section className="card" data-testid="package-panel">
        <h2>Package report</h2>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void runReport({
              ecosystem,
              coordinate: coordinate.trim(),
              version: version.trim() || undefined,
              limit,
              offset: 0,
            });
          }}
        >
          <div className="form-row">
            <label>
              <span>Ecosystem</span>
              <select
                name="ecosystem"
                value={ecosystem}
                onChange={(e) => setEcosystem(e.target.value as Ecosystem)}
                {...refusal.fieldProps("ecosystem")}
              >
                {ECOSYSTEM_CHOICES.map((c) => (
                  <option key={c.value} value={c.value}>
                    {c.label}
                  </option>
                ))}
              </select>
            </label>
            <label className="vuln-wide">
              <span>
                Package <span className="muted small">({choice.hint})</span>
              </span>
              <input
                name="coordinate"
                value={coordinate}
                required
                placeholder={choice.placeholder}
                onChange={(e) => setCoordinate(e.target.value)}
                {...refusal.fieldProps("coordinate")}
              />
            </label>
            <label>
              <span>
                Version <span className="muted small">(optional; latest when empty)</span>
              </span>
              <input
                name="version"
                value={version}
                placeholder="latest"
                onChange={(e) => setVersion(e.target.value)}
                {...refusal.fieldProps("version")}
              />
            </label>
            <label className="vuln-narrow">
              <span>Advisories per page</span>
              <select name="limit" value={limit} onChange={(e) => setLimit(Number(e.target.value))}>
                {PAGE_SIZES.map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <div className="row" style={{ marginTop: "0.75rem" }}>
            <BusyButton
              type="submit"
              className="btn btn-primary"
              busy={lookup.running}
              busyLabel="Running…"
              data-testid="run-package-report"
            >
              Check package
            </BusyButton>
            <span className="cost" data-testid="package-cost">
              Cost: <strong>1 unit</strong> per report or page · {lookupPlanWords("vulnerabilities")}
            </span>
          </div>
        </form>
      </section>
      {outcome && !outcome.ok ? (
        <LookupErrorNote error={outcome.error} labels={PACKAGE_LABELS} id={refusal.noteId} />
      ) : null}
      {outcome && outcome.ok ? (
        <PackageReportView
          report={outcome.data}
          running={lookup.running}
          onPage={(offset) => lastInput && void runReport({ ...lastInput, offset })}
        />
      ) : null}
    </>
  );
}
