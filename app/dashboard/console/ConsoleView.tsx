"use client";
// Picks a lookup from the catalog, shows its cost before running, calls the very procedure the API uses (through
// the dashboard's tRPC endpoint), and shows the result and how the workspace's quota moved. The form comes first; the
// API's long description of the lookup follows it, folded.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { describePlans, plansForCapability } from "../../../server/api/contract-text";
import type { Capability } from "../../../server/plans/catalog";
import { lookupPlanWords } from "../_components/PlanGate";
import { ErrorNote, ReadFailed } from "../_components/ErrorNote";
import { useRefusalAtField, type PageRefusal } from "../_components/field-problem";
import { inFormWords } from "../_components/field-words";
import { LookupAnswer } from "../_components/LookupAnswer";
import { Prose } from "../_components/answers/parts";
import { UsageMeter } from "../_components/UsageMeter";
import { useTRPC, useTRPCClient } from "../_components/trpc";
import { buildInput } from "./build-input";
import type { LookupEntry, LookupField } from "./catalog-types";
import { fieldLabel } from "./field-text";
import { BODY_BOX, LookupForm } from "./LookupForm";
import { SaveReportButton } from "../reports/SaveReportButton";

type Outcome = { ok: true; data: unknown; target: string } | { ok: false; error: unknown };
type UsageChange = { before: number; after: number; remaining: number };

/** A count of units as the usage meter writes it (249,380). */
const units = (n: number) => n.toLocaleString("en-US");

/** Entries whose summary, path, tag or description hold every word of the search. */
function matching(catalog: LookupEntry[], search: string): LookupEntry[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return catalog;
  return catalog.filter((e) => {
    const text = `${e.summary} ${e.path} ${e.tag} ${e.description} ${e.capability}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

export function ConsoleView({ catalog }: { catalog: LookupEntry[] }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const overview = useQuery(trpc.account.overview.queryOptions());
  const [selected, setSelected] = useState<string | null>(catalog[0]?.procedure ?? null);
  const [search, setSearch] = useState("");
  const [running, setRunning] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [change, setChange] = useState<UsageChange | null>(null);
  const entry = useMemo(() => catalog.find((e) => e.procedure === selected) ?? null, [catalog, selected]);
  const capabilities = overview.data?.entitlements.capabilities ?? [];
  const shown = useMemo(() => matching(catalog, search), [catalog, search]);
  // The API names its fields ("asn: must be …"); the form's labels say them ("AS number must be …"), and the field
  // it names is marked and focused (a body field's is the JSON body's box).
  const labels = useMemo(
    () =>
      Object.fromEntries(
        [...(entry?.fields ?? []), ...(entry?.bodyFields ?? [])].map((f) => [f.name, fieldLabel(f.name)]),
      ),
    [entry],
  );
  const refusal = useRefusalAtField(outcome && !outcome.ok ? outcome.error : null, {
    labels,
    main: (entry?.fields.find((f) => f.required) ?? entry?.bodyFields.find((f) => f.required))?.name,
  });

  async function run(values: Record<string, string>, body: string) {
    if (!entry) return;
    let input: Record<string, unknown>;
    try {
      input = buildInput(entry, values, body);
    } catch (err) {
      // Said at the body's box, which takes the focus (field-problem.ts), as the service's refusals of a field are.
      const message =
        err instanceof SyntaxError ? `The request body is not valid JSON: ${err.message}` : (err as Error).message;
      setOutcome({ ok: false, error: { message, field: BODY_BOX } satisfies PageRefusal });
      return;
    }
    setRunning(true);
    setOutcome(null);
    // The count before the run, never a 0 standing in for a meter that has not loaded yet (it waits for it).
    const before = (await queryClient.ensureQueryData(trpc.account.overview.queryOptions())).usage.used;
    // The catalog is built from the router, so every entry names a real procedure; walk the client to it.
    const target = entry.procedure.split(".").reduce<any>((acc, seg) => acc[seg], client as any);
    try {
      const data = entry.kind === "query" ? await target.query(input) : await target.mutate(input);
      setOutcome({ ok: true, data, target: Object.values(values).filter(Boolean).join(" ") });
    } catch (error) {
      setOutcome({ ok: false, error });
    } finally {
      const fresh = await queryClient.fetchQuery({ ...trpc.account.overview.queryOptions(), staleTime: 0 });
      setChange({ before, after: fresh.usage.used, remaining: fresh.usage.remaining });
      setRunning(false);
    }
  }

  if (catalog.length === 0) return <p className="muted">No metered lookups are registered.</p>;
  return (
    <div className="console">
      <div className="card lookup-picker">
        <label htmlFor="lookup-search">Search lookups</label>
        <input
          id="lookup-search"
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder="e.g. email, TLS, CVE"
          data-testid="lookup-search"
        />
        <div className="lookup-list" data-testid="lookup-list">
          {shown.length === 0 ? <p className="muted small">No lookup matches “{search}”.</p> : null}
          {shown.map((e, i) => (
            <div key={e.procedure}>
              {i === 0 || shown[i - 1].tag !== e.tag ? <p className="lookup-tag">{e.tag}</p> : null}
              <button
                type="button"
                className={`lookup-item${e.procedure === selected ? " selected" : ""}`}
                data-procedure={e.procedure}
                aria-pressed={e.procedure === selected}
                onClick={() => {
                  setSelected(e.procedure);
                  setOutcome(null);
                  setChange(null);
                }}
              >
                <span className={`method method-${e.method.toLowerCase()}`}>{e.method}</span>
                {e.summary}
                <br />
                <code>{e.path}</code>
              </button>
            </div>
          ))}
        </div>
      </div>
      <div>
        {overview.data ? (
          <div className="card">
            <UsageMeter {...overview.data.usage} />
          </div>
        ) : overview.error ? (
          <div className="card">
            <ReadFailed what="This month's usage" query={overview} />
          </div>
        ) : null}
        {entry ? (
          <div className="card" data-testid="lookup-panel">
            <h2>{entry.summary}</h2>
            <p className="cost" data-testid="lookup-cost">
              Cost: <strong>{entry.cost}</strong> · {lookupPlanWords(entry.capability as Capability)}
              {entry.bulk === "always"
                ? " · needs bulk lookups"
                : entry.bulk === "multiple-targets"
                  ? " · more than one target needs bulk lookups"
                  : ""}
            </p>
            {overview.data && !capabilities.includes(entry.capability as never) ? (
              <p className="notice">
                This lookup needs {describePlans(plansForCapability(entry.capability as Capability))}, and this
                workspace&apos;s plan does not include it, so it cannot run here.{" "}
                <a href="/dashboard/plan">See the plans</a>
              </p>
            ) : null}
            <LookupForm
              key={entry.procedure}
              entry={entry}
              running={running}
              refused={Boolean(overview.data) && !capabilities.includes(entry.capability as never)}
              onRun={run}
              fieldProps={refusal.fieldProps}
            />
            {/* The API's description is long (what it checks, its statuses and errors): after the form, on demand. */}
            {entry.description ? (
              <details className="lookup-about" data-testid="lookup-description">
                <summary className="small">About this lookup</summary>
                <p className="small muted">
                  <Prose text={entry.description} />
                </p>
              </details>
            ) : null}
          </div>
        ) : null}
        {change ? (
          <p className="notice" data-testid="quota-change">
            Quota: used {units(change.before)} → <strong data-testid="quota-after">{units(change.after)}</strong> (
            {units(change.after - change.before)} unit
            {change.after - change.before === 1 ? "" : "s"} consumed, {units(change.remaining)} remaining)
          </p>
        ) : null}
        {outcome && !outcome.ok ? (
          <ErrorNote error={outcome.error} words={(m) => inFormWords(m, labels)} id={refusal.noteId} />
        ) : null}
        {outcome && outcome.ok ? <LookupAnswer value={outcome.data} title="Result" /> : null}
        {outcome && outcome.ok && entry ? (
          <SaveReportButton report={outcome.data} title={`${entry.summary}: ${outcome.target}`} />
        ) : null}
      </div>
    </div>
  );
}
