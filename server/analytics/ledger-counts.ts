// How analytics counts the usage ledger, one rule for every figure (GET /analytics/summary's endpoints, daily and
// thisMonth, GET /analytics/timeseries): an admitted request writes one row with its units, and a refund of some or
// all of them is a second row of the same request with negative units (server/quota/adjust.ts refundUnits). So a
// request is its positive row, and a refund lowers units without being a request of its own. An operator's
// correction (admin.usage.adjust) is neither a request nor any endpoint's usage.

/** The number of requests among the grouped ledger rows (SQL aggregate). */
export const LEDGER_REQUESTS_SQL = `count(*) FILTER (WHERE "units" > 0)`;

/** The units the grouped ledger rows spent, refunds deducted (SQL aggregate). */
export const LEDGER_UNITS_SQL = `sum("units")`;

/**
 * The endpoint a ledger row counts under (SQL expression): its own, except that a refund written under a name of
 * its own (a bulk job's `bulk.refund`, a monitor run's `monitor.refund`) lowers the row of what it gives back
 * (`bulk.job`, `monitor.run`), as a lookup's refund lowers its lookup's endpoint.
 */
export const LEDGER_ENDPOINT_SQL = `CASE "endpoint" WHEN 'bulk.refund' THEN 'bulk.job' WHEN 'monitor.refund' THEN 'monitor.run' ELSE "endpoint" END`;

/** The ledger rows analytics reads: every row but an operator's correction (SQL condition). */
export const LEDGER_USAGE_SQL = `"endpoint" <> 'admin.usage.adjust'`;
