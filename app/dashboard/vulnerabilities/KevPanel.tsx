"use client";
// Search the CISA Known Exploited Vulnerabilities catalog: free text, vendor, product, ransomware use and the
// date range the entries were added in, newest first, paged.
import { useState } from "react";
import { useRefusalAtField } from "../_components/field-problem";
import { formatUtc } from "../_components/format";
import { useTRPCClient } from "../_components/trpc";
import { LookupErrorNote } from "./LookupErrorNote";
import { Pager } from "./Pager";
import type { KevSearch, KevSearchInput, Outcome } from "./types";
import type { useMeteredLookup } from "./useMeteredLookup";
import { forUsers } from "../_components/answers/user-text";
import { BusyButton } from "../_components/BusyButton";

const FIELDS = ["query", "vendor", "product", "added_since", "added_until"] as const;
const PAGE = 20;

/** The form's fields as it labels them: the API's "added_until must not be before added_since" is said of its dates. */
const KEV_LABELS: Record<string, string> = {
  query: "Text",
  vendor: "Vendor",
  product: "Product",
  ransomware: "Ransomware use",
  added_since: "Added since",
  added_until: "Added until",
};

function KevResult({
  result,
  running,
  onPage,
}: {
  result: KevSearch;
  running: boolean;
  onPage: (offset: number) => void;
}) {
  const c = result.catalog;
  return (
    <div data-testid="kev-result">
      <p className="small muted">
        Catalog version <code>{c.version ?? "unknown"}</code>
        {c.releasedAt ? ` released ${c.releasedAt.slice(0, 10)}` : ""} · {c.count} entries ({c.origin}) · checked{" "}
        {formatUtc(result.checkedAt)}
      </p>
      {c.partial && c.note ? <p className="notice small">{forUsers(c.note)}</p> : null}
      {result.total === 0 ? <p className="small">No catalog entry matches.</p> : null}
      <Pager
        noun="entries"
        offset={result.offset}
        limit={result.limit}
        total={result.total}
        shown={result.vulnerabilities.length}
        running={running}
        onPage={onPage}
      />
      {result.vulnerabilities.length > 0 ? (
        <table className="list">
          <thead>
            <tr>
              <th>CVE</th>
              <th>Vendor / product</th>
              <th>Vulnerability</th>
              <th>Added</th>
              <th>Due</th>
              <th>Ransomware</th>
            </tr>
          </thead>
          <tbody>
            {result.vulnerabilities.map((v) => (
              <tr key={v.cveId} data-testid="kev-row">
                <td>
                  <code className="vuln-nowrap">{v.cveId}</code>
                </td>
                <td>
                  {v.vendorProject} / {v.product}
                </td>
                <td title={v.shortDescription}>{v.vulnerabilityName}</td>
                <td className="vuln-nowrap">{v.dateAdded}</td>
                <td className="vuln-nowrap">{v.dueDate ?? "—"}</td>
                <td className={v.knownRansomwareCampaignUse === "Known" ? "vuln-ransomware" : undefined}>
                  {v.knownRansomwareCampaignUse}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

export function KevPanel({ lookup }: { lookup: ReturnType<typeof useMeteredLookup> }) {
  const client = useTRPCClient();
  const [values, setValues] = useState<Record<(typeof FIELDS)[number], string>>({
    query: "",
    vendor: "",
    product: "",
    added_since: "",
    added_until: "",
  });
  const [ransomware, setRansomware] = useState<"" | "known" | "unknown">("");
  const [lastInput, setLastInput] = useState<KevSearchInput | null>(null);
  const [outcome, setOutcome] = useState<Outcome<KevSearch> | null>(null);
  const refusal = useRefusalAtField(outcome && !outcome.ok ? outcome.error : null, { labels: KEV_LABELS });

  async function search(input: KevSearchInput) {
    setLastInput(input);
    setOutcome(await lookup.run(() => client.vulnerabilities.kev.query(input)));
  }

  function inputFromForm(): KevSearchInput {
    const input: KevSearchInput = { limit: PAGE, offset: 0 };
    for (const f of FIELDS) if (values[f].trim()) input[f] = values[f].trim();
    if (ransomware) input.ransomware = ransomware;
    return input;
  }

  const set = (f: (typeof FIELDS)[number]) => (e: { target: { value: string } }) =>
    setValues({ ...values, [f]: e.target.value });
  return (
    <section className="card" data-testid="kev-panel">
      <h2>Known-exploited catalog (CISA KEV)</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void search(inputFromForm());
        }}
      >
        <div className="form-row">
          <label>
            <span>Text</span>
            <input
              name="query"
              value={values.query}
              placeholder="every word must occur"
              onChange={set("query")}
              {...refusal.fieldProps("query")}
            />
          </label>
          <label>
            <span>Vendor</span>
            <input name="vendor" value={values.vendor} onChange={set("vendor")} {...refusal.fieldProps("vendor")} />
          </label>
          <label>
            <span>Product</span>
            <input name="product" value={values.product} onChange={set("product")} {...refusal.fieldProps("product")} />
          </label>
          <label>
            <span>Ransomware use</span>
            <select
              name="ransomware"
              value={ransomware}
              onChange={(e) => setRansomware(e.target.value as typeof ransomware)}
              {...refusal.fieldProps("ransomware")}
            >
              <option value="">any</option>
              <option value="known">known</option>
              <option value="unknown">unknown</option>
            </select>
          </label>
          <label>
            <span>Added since</span>
            <input
              type="date"
              name="added_since"
              value={values.added_since}
              onChange={set("added_since")}
              {...refusal.fieldProps("added_since")}
            />
          </label>
          <label>
            <span>Added until</span>
            <input
              type="date"
              name="added_until"
              value={values.added_until}
              onChange={set("added_until")}
              {...refusal.fieldProps("added_until")}
            />
          </label>
        </div>
        <div className="row" style={{ marginTop: "0.75rem" }}>
          <BusyButton type="submit" className="btn btn-primary" busy={lookup.running} data-testid="run-kev">
            Search (1 unit)
          </BusyButton>
        </div>
      </form>
      {outcome && !outcome.ok ? (
        <LookupErrorNote error={outcome.error} labels={KEV_LABELS} id={refusal.noteId} />
      ) : null}
      {outcome && outcome.ok ? (
        <KevResult
          result={outcome.data}
          running={lookup.running}
          onPage={(offset) => lastInput && void search({ ...lastInput, offset })}
        />
      ) : null}
    </section>
  );
}
