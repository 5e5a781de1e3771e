// In-process timing of the rules issue's two figures: a backtest over 100,000 stored assessments (facts stored with
// each event, as POST /assess records them; a conditions rule and a CEL expression rule), and the assessment rate
// through the REST handler (POST /v1/assess, metered, local signals only) with no rules against 50 active
// expression rules. Prints one JSON line. Store: embedded in a temp dir, or PostgreSQL when BENCH_DATABASE_URL is
// set (own schema). BENCH_BACKTEST_ASSESSMENTS (default 100000) and BENCH_ASSESS_REQUESTS (default 300).
import { performance } from "node:perf_hooks";
import { useBenchStore } from "./runner-store";

export interface RulesFigures {
  store: string;
  backtest: {
    assessments: number;
    seedSeconds: number;
    runs: { rule: string; ms: number; evaluated: number; matched: number }[];
  };
  assess: { requests: number; rules: number; ms: number; perSecond: number; p50Ms: number; p95Ms: number }[];
}

const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const count = (name: string, fallback: number) => {
  const n = Number(process.env[name]?.trim() || fallback);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number`);
  return n;
};

async function main(): Promise<void> {
  const store = useBenchStore("rules");
  const { getDb, closeDb } = await import("../server/db/client");
  const { createWorkspace } = await import("../server/workspaces/workspaces");
  const { handleRestRequest } = await import("../server/api/rest/handler");
  const { newId } = await import("../server/ids");
  const { warmIpFeeds } = await import("../server/ip/reputation");
  const db = await getDb();
  await warmIpFeeds();

  const call = async (key: string, method: string, p: string, body?: unknown) => {
    const res = await handleRestRequest(
      new Request(`http://127.0.0.1:3000${p}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${p} answered ${res.status}: ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : null;
  };

  // Backtest over N stored assessments.
  const n = count("BENCH_BACKTEST_ASSESSMENTS", 100_000);
  const ws = await createWorkspace(db, {
    name: "bench rules",
    plans: ["suite_agency"],
    ownerEmail: "bench-rules@example.com",
  });
  const countries = ["US", "DE", "FR", "BR", "NG", "IN", "GB", "CN"];
  const levels = ["low", "medium", "high", "critical"] as const;
  const t0 = Date.now() - 20 * 86_400_000;
  const seedStarted = performance.now();
  for (let k = 0; k < n; k += 2000) {
    const rows = Array.from({ length: Math.min(2000, n - k) }, (_, j) => {
      const i = k + j;
      const score = (i * 37) % 100;
      const level = levels[Math.min(3, Math.floor(score / 25))]!;
      const facts = {
        event: i % 3 === 0 ? "checkout" : "login",
        billing_country: countries[i % countries.length],
        amount: (i * 13) % 2000,
        currency: "USD",
        score,
        risk_level: level,
        signals: score > 50 ? ["ip_hosting"] : [],
        "ip.address": `203.0.${(i >> 8) & 255}.${i & 255}`,
        "ip.country": countries[(i * 7) % countries.length],
        "ip.asn": 64500 + (i % 20),
        "email.disposable": i % 17 === 0,
        "velocity.ip_1h": i % 5,
      };
      return {
        id: newId("evt"),
        workspaceId: ws.workspaceId,
        requestId: `req_bench_${i}`,
        type: "assessment",
        createdAt: new Date(t0 + i * 10_000),
        data: {
          event: facts.event,
          score,
          risk_level: level,
          decision: score >= 80 ? "block" : score >= 60 ? "review" : "allow",
          signals: [],
          rules: [],
          shadow_rules: [],
          facts,
        },
      };
    });
    await db.event.createMany({ data: rows });
  }
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const since = new Date(t0 - 1000);
  const until = new Date();
  const runs: RulesFigures["backtest"]["runs"] = [];
  for (const [label, rule] of [
    [
      "conditions: billing_country in [NG, BR] and amount >= 500",
      {
        action: "review" as const,
        priority: 0,
        conditions: [
          { field: "billing_country", op: "in", value: ["NG", "BR"] },
          { field: "amount", op: "gte", value: 500 },
        ],
      },
    ],
    [
      "CEL expression over 4 facts",
      {
        action: "block" as const,
        priority: 0,
        expression: "amount >= 1000.0 && ip.country != billing_country && (email.disposable || velocity.ip_1h >= 3)",
      },
    ],
  ] as const) {
    const started = performance.now();
    // Through POST /v1/rules/backtest, so the rule is validated and normalised as a user's would be.
    const out = (await call(ws.apiKey, "POST", "/v1/rules/backtest", {
      ...rule,
      since: since.toISOString(),
      until: until.toISOString(),
    })) as { assessments?: number; matched?: number };
    runs.push({
      rule: label,
      ms: round(performance.now() - started),
      evaluated: Number(out.assessments ?? 0),
      matched: Number(out.matched ?? 0),
    });
  }

  // Assessment rate: none vs 50 active expression rules.
  const requests = count("BENCH_ASSESS_REQUESTS", 300);
  const assess: RulesFigures["assess"] = [];
  for (const rules of [0, 50]) {
    const w = await createWorkspace(db, {
      name: `bench assess ${rules}`,
      plans: ["suite_agency"],
      ownerEmail: `bench-assess-${rules}@example.com`,
    });
    for (let r = 0; r < rules; r++) {
      await call(w.apiKey, "POST", "/v1/rules", {
        name: `rule ${r}`,
        action: r % 2 ? "review" : "block",
        mode: "active",
        expression: `amount > ${10_000 + r}.0 && ip.country == "${countries[r % countries.length]}" || score > ${101 + r}`,
      });
    }
    const times: number[] = [];
    const body = (i: number) => ({
      event: "checkout",
      ip: `8.8.${i % 250}.${(i * 3) % 250}`,
      user_agent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120 Safari/537.36",
      amount: 50 + (i % 100),
      currency: "USD",
      billing_country: "US",
    });
    for (let i = 0; i < 20; i++) await call(w.apiKey, "POST", "/v1/assess", body(i)); // warm-up
    const started = performance.now();
    for (let i = 0; i < requests; i++) {
      const s = performance.now();
      await call(w.apiKey, "POST", "/v1/assess", body(i));
      times.push(performance.now() - s);
    }
    const ms = performance.now() - started;
    times.sort((a, b) => a - b);
    assess.push({
      requests,
      rules,
      ms: round(ms),
      perSecond: round((requests / ms) * 1000),
      p50Ms: round(times[Math.floor(times.length * 0.5)]!, 2),
      p95Ms: round(times[Math.floor(times.length * 0.95)]!, 2),
    });
  }
  await closeDb();
  console.log(
    JSON.stringify({
      store,
      backtest: { assessments: n, seedSeconds: round(seedSeconds), runs },
      assess,
    } satisfies RulesFigures),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
