// Usage of the current UTC month per API key and per endpoint, from the usage ledger (one row per admitted
// request, refunds as negative rows): what the Keys page and GET /analytics/summary show, and what adds up to
// X-Service-Quota-Used (operator adjustments aside). A bulk job's refund counts against its job's endpoint.
import type { Db } from "../db/client";
import { periodStart } from "../quota/period";
import { LEDGER_ENDPOINT_SQL, LEDGER_REQUESTS_SQL, LEDGER_UNITS_SQL, LEDGER_USAGE_SQL } from "./ledger-counts";
import { isKeyPayer, PAYER_SQL, payerName } from "./payers";

export interface MonthUsage {
  /** Start of the UTC month the counts cover (ISO 8601). */
  period_start: string;
  /**
   * Per API key (key_id and its name); the dashboard's own requests are one row with key_id null, scheduled monitor
   * runs one with key_id `scheduled` (./payers.ts).
   */
  keys: { key_id: string | null; name: string; requests: number; units: number }[];
  endpoints: { endpoint: string; requests: number; units: number }[];
}

type Agg = { id: string | null; requests: bigint | number; units: bigint | number | null };

export async function monthUsage(db: Db, a: { workspaceId: string; now?: Date }): Promise<MonthUsage> {
  const start = periodStart(a.now ?? new Date());
  const where = `"workspaceId" = $1 AND "periodStart" = $2::timestamp(3) AND ${LEDGER_USAGE_SQL}`;
  const [byKey, byEndpoint] = await Promise.all([
    db.$queryRawUnsafe<Agg[]>(
      `SELECT ${PAYER_SQL} AS "id", ${LEDGER_REQUESTS_SQL} AS "requests", ${LEDGER_UNITS_SQL} AS "units"
         FROM "UsageLedger" WHERE ${where} GROUP BY 1`,
      a.workspaceId,
      start,
    ),
    db.$queryRawUnsafe<Agg[]>(
      `SELECT ${LEDGER_ENDPOINT_SQL} AS "id",
              ${LEDGER_REQUESTS_SQL} AS "requests", ${LEDGER_UNITS_SQL} AS "units"
         FROM "UsageLedger" WHERE ${where} GROUP BY 1`,
      a.workspaceId,
      start,
    ),
  ]);
  const ids = byKey.map((r) => r.id).filter(isKeyPayer);
  const names = new Map(
    (
      await db.apiKey.findMany({
        where: { workspaceId: a.workspaceId, id: { in: ids } },
        select: { id: true, name: true },
      })
    ).map((k) => [k.id, k.name]),
  );
  const byUnits = <T extends { units: number }>(x: T, y: T) => y.units - x.units;
  return {
    period_start: start.toISOString(),
    keys: byKey
      .map((r) => ({
        key_id: r.id,
        name: payerName(r.id, r.id === null ? undefined : names.get(r.id)),
        requests: Number(r.requests),
        units: Number(r.units ?? 0),
      }))
      .sort(byUnits),
    endpoints: byEndpoint
      .map((r) => ({ endpoint: r.id ?? "", requests: Number(r.requests), units: Number(r.units ?? 0) }))
      .sort((x, y) => byUnits(x, y) || x.endpoint.localeCompare(y.endpoint)),
  };
}
