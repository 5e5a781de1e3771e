// The landing page: what the service does, where to sign in and read the docs, and the data it draws on with how
// fresh each area's data is (the same figures as GET /v1/sources and /dashboard/sources).
import Link from "next/link";
import { getDb } from "../server/db/client";
import { dataSourcesCached, type DataSource } from "../server/feeds/public-status";
import { ageText, cadenceText, sourceArea, SOURCE_AREAS } from "./dashboard/sources/source-text";
import "./landing.css";

export const dynamic = "force-dynamic";

const CAPABILITIES = [
  {
    title: "Fraud scores",
    text: "Score signups, logins and checkouts in one call: a 0–100 risk, a decision, and every signal that moved it, with its source.",
  },
  {
    title: "IP intelligence",
    text: "Geolocation, ASN, hosting, Tor, VPN, private relay and verified crawlers, from dated public lists named in every answer.",
  },
  {
    title: "Email and domains",
    text: "Deliverability, disposable and free providers, SPF, DMARC, DNS, RDAP, TLS certificates and blocklists.",
  },
  {
    title: "Vulnerabilities",
    text: "npm, PyPI, Maven, Go and Composer package reports with CISA's Known Exploited Vulnerabilities catalog.",
  },
  {
    title: "Rules and webhooks",
    text: "Your own rules on every assessment, tried first in shadow mode, and signed webhooks when something looks bad.",
  },
  {
    title: "Bulk and history",
    text: "Up to 100 targets per bulk job from the dashboard or the API, with lookup history and exports.",
  },
];

async function loadSources(): Promise<DataSource[] | null> {
  try {
    return await dataSourcesCached(await getDb());
  } catch {
    return null;
  }
}

function AreaRow({ label, rows }: { label: string; rows: DataSource[] }) {
  const dated = rows.filter((r) => r.age_seconds !== null);
  const newest = dated.sort((a, b) => (a.age_seconds ?? 0) - (b.age_seconds ?? 0))[0];
  const seconds = [
    ...new Set(
      rows
        .filter((r) => r.refresh.status === "ok" || r.refresh.status === "failing")
        .map((r) => r.refresh.every_seconds ?? 0),
    ),
  ];
  const cadences = seconds.sort((a, b) => a - b).map(cadenceText);
  const entries = rows.reduce((n, r) => n + r.entries, 0);
  return (
    <tr>
      <th scope="row">{label}</th>
      <td>
        {rows.length} list{rows.length === 1 ? "" : "s"}, {entries.toLocaleString("en")} entries
      </td>
      <td>{newest ? `newest data ${ageText(newest.age_seconds)} old` : "no data yet"}</td>
      <td>{cadences.length ? `refreshed ${cadences.join(", ")}` : "updated with each release"}</td>
    </tr>
  );
}

export default async function Home() {
  const sources = await loadSources();
  return (
    <main className="landing">
      <header className="landing-hero">
        <h1>Security and Fraud Intelligence API</h1>
        <p className="lead">
          Score signups, logins and checkouts for fraud; look up IPs, domains, DNS, email, TLS certificates, blocklists
          and package vulnerabilities; get a webhook when something looks bad. Every answer says where its evidence
          comes from and how old it is.
        </p>
        <p className="landing-actions">
          <Link href="/signin" className="landing-btn landing-btn-primary">
            Sign in
          </Link>
          <Link href="/dashboard" className="landing-btn">
            Dashboard
          </Link>
          <Link href="/docs" className="landing-btn">
            API reference
          </Link>
          <a href="/v1/openapi.json">openapi.json</a>
        </p>
      </header>

      <section aria-labelledby="what">
        <h2 id="what">What it does</h2>
        <ul className="landing-grid">
          {CAPABILITIES.map((c) => (
            <li key={c.title}>
              <h3>{c.title}</h3>
              <p>{c.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="data">
        <h2 id="data">Data sources and their freshness</h2>
        {sources === null ? (
          <p className="muted">The data sources could not be read just now.</p>
        ) : (
          <>
            <table className="landing-sources">
              <thead>
                <tr>
                  <th scope="col">Area</th>
                  <th scope="col">Lists</th>
                  <th scope="col">Age</th>
                  <th scope="col">Refresh</th>
                </tr>
              </thead>
              <tbody>
                {SOURCE_AREAS.map((a) => {
                  const rows = sources.filter((s) => sourceArea(s.name) === a.id);
                  return rows.length ? <AreaRow key={a.id} label={a.label} rows={rows} /> : null;
                })}
              </tbody>
            </table>
            <p className="muted small">
              Each list with its licence, date and refresh state: <code>GET /v1/sources</code> or Data sources in the
              dashboard. <a href="https://db-ip.com">IP Geolocation by DB-IP</a>.
            </p>
          </>
        )}
      </section>
    </main>
  );
}
