// Who may call a route, on which plans and at what cost is said once, by the procedure's contract (its meta) and
// the plan catalog: the OpenAPI descriptions end with the sentence written from them (server/api/contract-text.ts),
// no router or dashboard page types a plan name or a unit cost again, and a change in the catalog changes the
// sentences. The badge, a route outside /v1, is documented as it answers.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { forEachOpenApiProcedure } from "trpc-to-openapi";
import { beforeAll, describe, expect, it } from "vitest";
import {
  accessSentence,
  BULK_PLANS,
  catalogPlans,
  describePlans,
  historyWindowsList,
  historyWindowsSentence,
  plansForCapability,
  WEBHOOK_PLANS,
  type AccessMeta,
} from "../../server/api/contract-text";
import { getOpenApiDocument } from "../../server/api/rest/openapi";
import { appRouter } from "../../server/api/root";
import type { Meta } from "../../server/api/trpc";
import type { Plan } from "../../server/plans/catalog";
import { answerBadgeRequest } from "../../server/site-scans/badge";
import { createTestApp, type TestApp } from "../harness";

const doc = getOpenApiDocument();
const root = process.cwd();

/** Every procedure published in the document, with its meta, as "METHOD /template". */
const procedures: [string, Meta][] = [];
forEachOpenApiProcedure(appRouter._def.procedures, ({ meta }) => {
  const m = meta as Meta & { openapi: { method: string; path: string } };
  procedures.push([`${m.openapi.method} ${m.openapi.path}`, m]);
});

/** What a hand-typed plan or cost sentence looks like: plan names from the catalog, families, unit costs. */
function handTyped(text: string): string[] {
  const names = catalogPlans()
    .map((p) => p.name)
    .filter((n) => n.includes(" "));
  const families = [...new Set(names.map((n) => n.split(" ")[0]!))];
  const patterns = [
    ...names.map((n) => new RegExp(`\\b${n}\\b`)),
    ...families.map((f) => new RegExp(`\\b${f} (plan|or|and|keeps)\\b`)),
    /\bFree (plan|allowed|included|workspaces)\b/,
    /\b(1|one) lookup units?\b/i,
    /Capability \\?`/,
  ];
  return patterns.filter((p) => p.test(text)).map(String);
}

describe("every operation's description ends with the sentence written from its contract", () => {
  it.each(procedures)("%s", (name, meta) => {
    const [method, template] = name.split(" ");
    const op = doc.paths[template!]?.[method!.toLowerCase()];
    expect(op, name).toBeDefined();
    const sentence = accessSentence(meta as AccessMeta);
    expect(op.description.endsWith(`\n\n${sentence}`)).toBe(true);
    expect(sentence).toMatch(/^\*\*Access:\*\* .+ \*\*Cost:\*\* /);
    expect(op["x-service-access"]).toBeUndefined();
    if (meta.metered) {
      expect(op["x-service-capability"]).toBe(meta.metered.capability);
      expect(op["x-service-cost"]).toBe(meta.metered.cost);
    }
    // The prose before it no longer repeats who may call or what it costs.
    // (The history windows of GET /lookups/history are the catalog's, written by historyWindowsList.)
    const prose = op.description.slice(0, -sentence.length).replace(historyWindowsList(), "");
    expect(handTyped(prose)).toEqual([]);
    expect(prose).not.toMatch(/\bunmetered\b/i);
  });

  it("covers every procedure of the document (the check can fail)", () => {
    expect(procedures.length).toBeGreaterThan(50);
    expect(doc.paths["/rules"].get.description).toContain("**Access:** an active API key of the workspace");
  });
});

describe("no router or dashboard page types a plan name or a unit cost", () => {
  const routerDir = path.join(root, "server/api/routers");
  // One file per procedure, in a folder per area (server/api/routers/<area>/<procedure>.ts).
  const routers = (readdirSync(routerDir, { recursive: true }) as string[]).filter((f) => f.endsWith(".ts")).sort();
  const pages = [
    "app/dashboard/bulk/BulkView.tsx",
    "app/dashboard/bulk/BulkForm.tsx",
    "app/dashboard/bulk/BulkJobList.tsx",
    "app/dashboard/bulk/BulkProgress.tsx",
    "app/dashboard/bulk/BulkResults.tsx",
    "app/dashboard/webhooks/WebhooksView.tsx",
    "app/dashboard/history/HistoryView.tsx",
    "app/dashboard/reports/ReportsView.tsx",
  ];

  it.each(routers)("server/api/routers/%s", (file) => {
    expect(handTyped(readFileSync(path.join(routerDir, file), "utf8"))).toEqual([]);
  });

  it.each(pages)("%s", (file) => {
    expect(handTyped(readFileSync(path.join(root, file), "utf8"))).toEqual([]);
  });

  it("the scan sees a hand-typed sentence (the check can fail)", () => {
    expect(handTyped("Any Suite or Lookups plan; unmetered.")).not.toEqual([]);
    expect(handTyped("Needs the bulk entitlement (Suite Business, Suite Agency or Lookups Growth).")).not.toEqual([]);
    expect(handTyped("Capability `full`; 1 lookup unit.")).not.toEqual([]);
    expect(handTyped("Free text for people; the unit still counts.")).toEqual([]);
  });
});

describe("the sentences follow the contract", () => {
  it("says who, the plans, bulk, the cost and the rate limit from the meta", () => {
    expect(accessSentence({ metered: { capability: "geolocation", cost: "1 unit", bulk: "never" } })).toBe(
      "**Access:** an active API key of the workspace (or a signed-in member in the dashboard), on any plan, Free included (capability `geolocation`). **Cost:** 1 lookup unit. **Free:** 400 INVALID_REQUEST, 401, 402 and 403 are answered before admission and cost nothing. Once admitted, the unit counts whatever the sources found, a 404 (the source found nothing) included; a 503 UPSTREAM_UNAVAILABLE (no source could answer) gives its units back, so retrying it is safe.",
    );
    expect(
      accessSentence({
        metered: { capability: "full", cost: "1 unit", bulk: "never", free: ["NOT_FOUND for a private address"] },
        errors: ["TARGET_FORBIDDEN"],
      }),
    ).toContain(
      "**Free:** 400 INVALID_REQUEST, 401, 402, 403, 400 TARGET_FORBIDDEN and 404 NOT_FOUND for a private address are answered before admission",
    );
    expect(
      accessSentence({
        metered: {
          capability: "full",
          cost: "1 unit per submitted target",
          bulk: "multiple-targets",
          rateLimited: true,
        },
      }),
    ).toBe(
      "**Access:** an active API key of the workspace (or a signed-in member in the dashboard), on a Suite or Lookups plan (capability `full`; otherwise 403 CAPABILITY_REQUIRED). " +
        "More than one target needs bulk lookups (the Suite Business, Suite Agency or Lookups Growth plan; otherwise 403 BULK_LOOKUPS_REQUIRED). " +
        "**Cost:** 1 lookup unit per submitted target. **Free:** 400 INVALID_REQUEST, 401, 402, 403 and 429 RATE_LIMITED are answered before admission and cost nothing. Once admitted, the unit counts whatever the sources found, a 404 (the source found nothing) included; a 503 UPSTREAM_UNAVAILABLE (no source could answer) gives its units back, so retrying it is safe. **Rate limit:** per workspace; over it, 429 RATE_LIMITED with Retry-After and no unit consumed.",
    );
    expect(accessSentence({ requires: { webhooks: true } })).toBe(
      "**Access:** an active API key of the workspace (or a signed-in member in the dashboard), on the Suite Agency or Lookups Growth plan (webhooks; otherwise 403 CAPABILITY_REQUIRED). **Cost:** unmetered (no lookup units).",
    );
    expect(accessSentence({ requires: { bulk: "always" }, charges: "the sum of the items' lookup units" })).toBe(
      "**Access:** an active API key of the workspace (or a signed-in member in the dashboard), on the Suite Business, Suite Agency or Lookups Growth plan (bulk lookups; otherwise 403 BULK_LOOKUPS_REQUIRED). **Cost:** the sum of the items' lookup units.",
    );
    // A requirement that asks the input says so, as the refusal does (server/api/contract.ts requirementRefusal).
    expect(accessSentence({ requires: { bulk: () => true }, charges: "the sum of the items' lookup units" })).toMatch(
      /on any plan\. More than one target needs bulk lookups \(/,
    );
    expect(accessSentence({ openapi: { protect: false }, errors: ["RATE_LIMITED"] })).toBe(
      "**Access:** no API key needed (a key that is sent must be active). **Cost:** unmetered (no lookup units). **Rate limit:** over it, 429 RATE_LIMITED with Retry-After.",
    );
    expect(accessSentence({ who: "key-or-owner", requires: { capability: "full" } })).toContain(
      "or a workspace owner in the dashboard (a member is 403 FORBIDDEN), on a Suite or Lookups plan",
    );
    expect(accessSentence({ requires: { capability: "full" }, rateLimit: { name: "x" } })).toMatch(
      /\*\*Rate limit:\*\* per workspace; over it, 429 RATE_LIMITED with Retry-After\.$/,
    );
  });

  it("a declared burst limit (meta.rateLimit) is the one the ladder enforces, and the document answers 429 for it", () => {
    const backtest = procedures.find(([name]) => name === "POST /rules/backtest")![1];
    expect(backtest.rateLimit?.what).toBe("backtests");
    expect(backtest.errors ?? []).not.toContain("RATE_LIMITED");
    const op = doc.paths["/rules/backtest"].post;
    expect(op.responses["429"]).toBeDefined();
    expect(op.description).toContain("**Rate limit:** per workspace; over it, 429 RATE_LIMITED with Retry-After.");
  });

  it("reads the published procedures' meta, not a copy: POST /weights/mode is for keys or owners, POST /jobs charges its items", () => {
    expect(doc.paths["/weights/mode"].post.description).toContain(
      "or a workspace owner in the dashboard (a member is 403 FORBIDDEN)",
    );
    expect(doc.paths["/jobs"].post.description).toContain("**Cost:** the sum of the items' lookup units");
    expect(doc.paths["/jobs"].post["x-service-cost"]).toMatch(/sum of the items/);
    expect(doc.paths["/online-check"].post.description).toContain("**Rate limit:** per workspace");
  });

  it("changes when the catalog changes (a modified copy, no module mocked)", () => {
    const catalog = catalogPlans();
    const full = { metered: { capability: "full" as const, cost: "1 unit", bulk: "always" as const } };
    const before = accessSentence(full, catalog);
    // Suite Starter loses the full capability, Suite Business gains webhooks, Lookups Developer gains bulk.
    const changed: Plan[] = catalog.map((p) => {
      if (p.slug === "suite_starter") return { ...p, capabilities: p.capabilities.filter((c) => c !== "full") };
      if (p.slug === "suite_business") return { ...p, webhooks: true, historyDays: 120 };
      if (p.slug === "lookups_developer") return { ...p, bulk: true };
      return p;
    });
    const after = accessSentence(full, changed);
    expect(before).toContain("on a Suite or Lookups plan");
    expect(after).toContain(
      "on the Suite Business, Lookups Developer, Suite Agency or Lookups Growth plan (capability `full`",
    );
    expect(after).toContain(
      "Needs bulk lookups (the Suite Business, Lookups Developer, Suite Agency or Lookups Growth plan;",
    );
    expect(accessSentence({ requires: { webhooks: true } }, changed)).toContain(
      "on the Suite Business, Suite Agency or Lookups Growth plan (webhooks",
    );
    expect(describePlans(plansForCapability("full", changed), changed)).not.toBe(
      describePlans(plansForCapability("full")),
    );
    expect(historyWindowsList(changed)).toContain("Suite Business 120 days");
    expect(historyWindowsSentence(changed)).not.toBe(historyWindowsSentence());
  });

  it("the dashboard's plan notices are the catalog's", () => {
    expect(describePlans(BULK_PLANS())).toBe("the Suite Business, Suite Agency or Lookups Growth plan");
    expect(describePlans(WEBHOOK_PLANS())).toBe("the Suite Agency or Lookups Growth plan");
    expect(historyWindowsSentence()).toBe(
      "Free workspaces keep no lookup history. Paid Email subscription keeps 7 days, Suite Starter 30, Suite Business and Lookups Developer 90, Suite Agency and Lookups Growth 365.",
    );
    expect(doc.paths["/lookups/history"].get.description).toContain(`(${historyWindowsList()})`);
  });
});

describe("GET /badges/{host}.svg, outside /v1", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });

  const badge = doc.paths["/badges/{host}.svg"];

  it("is documented at the site root with its parameter, SVG body, ETag, 304, cache and CORS headers", () => {
    expect(badge.servers[0].url).toMatch(/^(\/|https?:\/\/)/);
    expect(badge.get.security).toEqual([]);
    expect(badge.get.parameters.map((p: any) => `${p.in}:${p.name}`)).toEqual(["path:host", "header:If-None-Match"]);
    expect(Object.keys(badge.get.responses["200"].content)).toEqual(["image/svg+xml"]);
    expect(Object.keys(badge.get.responses).sort()).toEqual(["200", "304", "404"]);
    expect(badge.get["x-service-errors"]).toEqual(["NOT_FOUND"]);
  });

  it("answers as documented: 200 SVG, 304 for its ETag, 404 for a bad name, each with the documented headers", async () => {
    const ok = await answerBadgeRequest(app.db, "example.com.svg", null);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    for (const h of Object.keys(badge.get.responses["200"].headers)) expect(ok.headers.get(h), h).toBeTruthy();
    expect(ok.headers.get("cache-control")).toBe("public, max-age=300");
    expect(ok.headers.get("access-control-allow-origin")).toBe("*");

    const same = await answerBadgeRequest(app.db, "example.com.svg", ok.headers.get("etag"));
    expect(same.status).toBe(304);
    for (const h of Object.keys(badge.get.responses["304"].headers)) expect(same.headers.get(h), h).toBeTruthy();

    const bad = await answerBadgeRequest(app.db, "not a host.svg", null);
    expect(bad.status).toBe(404);
    expect((await bad.json()).error.code).toBe("NOT_FOUND");
  });
});

describe("publicProcedure refuses unreadable input itself (the optional-key routes no longer add the check)", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });

  it("POST /go/links (anonymous): a NUL in a string and malformed JSON are 400 INVALID_REQUEST, and nothing is created", async () => {
    const nul = await app.request("POST", "/v1/go/links", { body: { url: "https://example.com/a\u0000b" } });
    expect(nul.status).toBe(400);
    expect(nul.body.error.code).toBe("INVALID_REQUEST");
    const malformed = await app.request("POST", "/v1/go/links", { body: "{not json" });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe("INVALID_REQUEST");
    expect(await app.db.link.count()).toBe(0);
  });

  it("GET /scans/{id} and /scans/leaderboard: a NUL in the path is 400; a clean unknown id is still 404", async () => {
    expect((await app.request("GET", "/v1/scans/a%00b")).status).toBe(400);
    expect((await app.request("GET", "/v1/scans/scan_doesnotexist")).status).toBe(404);
    expect((await app.request("GET", "/v1/scans/leaderboard")).status).toBe(200);
  });
});
