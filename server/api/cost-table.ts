// README's table of what each route costs, generated from the charging table (./charging.ts) and the procedures'
// routes: `npm run costs:table` writes it between the markers, test/metering/charging.test.ts fails when README.md
// holds another one. The OpenAPI document's `x-service-cost` and /docs read the same entries (./rest/openapi.ts).
import { forEachOpenApiProcedure } from "trpc-to-openapi";
import { CHARGING, costOf } from "./charging";
import { withGeneratedSection } from "../env/table";
import { bulkRuleOf } from "./contract-text";
import { appRouter } from "./root";
import type { Meta } from "./trpc";

export const COSTS_BEGIN = "<!-- costs:begin -->";
export const COSTS_END = "<!-- costs:end -->";

/**
 * Charged procedures that have no `/v1` route, by the route that calls them (the dashboard's account routes). A
 * charged procedure with neither a `/v1` route nor an entry here fails the test.
 */
export const ACCOUNT_ROUTES: Readonly<Record<string, string>> = {
  "reports.create": "POST {account_url}/api/account/reports",
};

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

export interface CostRow {
  procedure: string;
  route: string;
  cost: string;
  /** What the plan must include, in the plan table's words: the capability, bulk, a job's items' own. */
  needs: string;
}

const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta } }>;

function needsOf(path: string, meta: Meta | undefined): string {
  const parts: string[] = [];
  const capability = meta?.metered?.capability ?? meta?.requires?.capability;
  if (capability) parts.push(`\`${capability}\``);
  const bulk = meta ? bulkRuleOf(meta) : "never";
  if (bulk === "always") parts.push("bulk lookups");
  if (bulk === "multiple-targets") parts.push("bulk lookups for more than one target");
  if (CHARGING[path]?.kind === "job") parts.push("each item's capability");
  return parts.join(", ");
}

/** Every charged procedure with its route and cost, in the router's order; the account routes' after the `/v1` ones. */
export function costRows(): CostRow[] {
  const rows: CostRow[] = [];
  const routed = new Set<string>();
  forEachOpenApiProcedure(appRouter._def.procedures, ({ meta, path }) => {
    routed.add(path);
    const cost = costOf(path);
    if (!cost) return;
    const m = meta as unknown as Meta & { openapi: NonNullable<Meta["openapi"]> };
    const route = `${m.openapi.method} /v1/${m.openapi.path.replace(/^\/|\/$/g, "")}`;
    rows.push({ procedure: path, route, cost, needs: needsOf(path, m) });
  });
  for (const path of Object.keys(CHARGING)) {
    const cost = costOf(path);
    if (!cost || routed.has(path)) continue;
    const route = ACCOUNT_ROUTES[path];
    if (!route) throw new Error(`${path} charges but has neither a /v1 route nor an entry in ACCOUNT_ROUTES.`);
    rows.push({ procedure: path, route, cost, needs: needsOf(path, procedures[path]?._def.meta) });
  }
  return rows;
}

/** The table: route, what it costs, the plan capability it needs; then the rule for everything else. */
export function costTable(): string {
  const lines = [
    "<!-- Generated from server/api/charging.ts by `npm run costs:table`: edit the charging table, not this one. -->",
    "",
    "| route | cost in lookup units | the plan needs |",
    "|---|---|---|",
    ...costRows().map((r) => `| \`${cell(r.route)}\` | ${cell(r.cost)} | ${r.needs} |`),
  ];
  lines.push(
    "",
    `A monitor's scheduled run costs what a run outside its schedule costs (\`POST /v1/monitors/{id}/run\`). Every other route is unmetered.`,
  );
  return lines.join("\n");
}

/** `readme` with the text between the markers replaced by the generated table; throws when a marker is missing. */
export function withCostTable(readme: string): string {
  return withGeneratedSection(readme, { begin: COSTS_BEGIN, end: COSTS_END, what: "cost table", body: costTable() });
}
