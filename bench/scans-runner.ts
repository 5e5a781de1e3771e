// In-process timing of website scans (issue 10): POST /v1/scans through the REST handler, end to end (SSRF guard,
// redirect chain, headers, cookies, SRI, TLS summary, CAA, DNSSEC, SPF and DMARC, scoring, stored result, one
// unit charged), against the local fake sites of test/site-scans/sites.ts (HTTP and HTTPS servers on 127.0.0.1, fake
// DNS server, test CA). The A+ site (redirect to HTTPS, every header, signed zone) and the F site (plain HTTP, no
// TLS, no mail records). Warm-up scans first, then BENCH_SCAN_ITERATIONS timed scans per site (default 20).
// Prints one JSON line. Store: embedded in a temp dir, or PostgreSQL when BENCH_DATABASE_URL is set (own schema).
import { performance } from "node:perf_hooks";
import { useBenchStore } from "./runner-store";
import { EXPECTED, startSiteWorld } from "../test/site-scans/sites";

export interface ScanFigures {
  store: string;
  scans: {
    site: string;
    grade: string;
    expectedGrade: string;
    warmup: number;
    scans: number;
    p50Ms: number;
    p95Ms: number;
    minMs: number;
    maxMs: number;
    unitsCharged: number;
    unitsExact: boolean;
  }[];
}

const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;

async function main(): Promise<void> {
  const store = useBenchStore("scans");
  const iterations = Number(process.env.BENCH_SCAN_ITERATIONS?.trim() || "20");
  if (!Number.isInteger(iterations) || iterations <= 0)
    throw new Error("BENCH_SCAN_ITERATIONS must be a positive whole number");
  const warmup = 3;

  const world = await startSiteWorld();
  // The same settings test/site-scans/scans.test.ts uses: trust the test CA, resolve targets through the fake DNS server,
  // and let the SSRF guard allow 127.0.0.1 (the fake sites' only address).
  Object.assign(process.env, {
    SERVICE_EXTRA_CA_FILE: world.caFile,
    SERVICE_TARGET_RESOLVER: "configured",
    SERVICE_DNS_SERVERS: world.dns.address,
    SERVICE_ALLOW_PRIVATE_TARGETS: "1",
  });
  delete process.env.SERVICE_SCAN_WAIT_MS;

  const { getDb, closeDb } = await import("../server/db/client");
  const { createWorkspace } = await import("../server/workspaces/workspaces");
  const { handleRestRequest } = await import("../server/api/rest/handler");
  const db = await getDb();

  const figures: ScanFigures["scans"] = [];
  for (const site of ["aplus.test", "f.test"]) {
    const ws = await createWorkspace(db, {
      name: `bench scans ${site}`,
      plans: ["suite_business"],
      ownerEmail: `bench-scans-${site}@example.com`,
    });
    const once = async () => {
      const started = performance.now();
      const res = await handleRestRequest(
        new Request("http://127.0.0.1:3000/v1/scans", {
          method: "POST",
          headers: { Authorization: `Bearer ${ws.apiKey}`, "Content-Type": "application/json" },
          body: JSON.stringify({ url: world.startUrl(site) }),
        }),
      );
      const body = (await res.json()) as { status?: string; grade?: string; error?: unknown };
      const ms = performance.now() - started;
      if (res.status !== 200 || body.status !== "done")
        throw new Error(`POST /v1/scans for ${site} answered ${res.status}: ${JSON.stringify(body).slice(0, 500)}`);
      return { ms, grade: body.grade ?? "" };
    };
    for (let i = 0; i < warmup; i++) await once();
    const times: number[] = [];
    let grade = "";
    for (let i = 0; i < iterations; i++) {
      const r = await once();
      times.push(r.ms);
      grade = r.grade;
    }
    times.sort((a, b) => a - b);
    const unitsCharged = (await db.usagePeriod.findMany({ where: { workspaceId: ws.workspaceId } })).reduce(
      (n, r) => n + r.used,
      0,
    );
    figures.push({
      site,
      grade,
      expectedGrade: EXPECTED[site]!.grade,
      warmup,
      scans: iterations,
      p50Ms: round(quantile(times, 0.5)),
      p95Ms: round(quantile(times, 0.95)),
      minMs: round(times[0]!),
      maxMs: round(times[times.length - 1]!),
      unitsCharged,
      unitsExact: unitsCharged === warmup + iterations,
    });
  }
  await world.close();
  await closeDb();
  console.log(JSON.stringify({ store, scans: figures } satisfies ScanFigures));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
