// How many calls one request to the dashboard's tRPC endpoint may batch. The dashboard's client (httpBatchLink's
// maxItems, app/dashboard/_components/Providers.tsx) splits a page's reads into batches of at most this many, and the
// endpoint (server/api/http/dashboard.ts, tRPC's maxBatchSize) refuses a longer batch with 400 before any call runs:
// without it one request of a few kilobytes could hold the server for seconds (500 calls of a lookup took 7.4 s).
export const MAX_BATCH_CALLS = 25;
