// Runs one of the test fakes as its own process, so the load generator and the fake do not share an event loop
// and the service's CPU figure does not include them. `tsx bench/fakes-host.ts dns|packages` prints one JSON line
// {env, statsUrl} and serves GET statsUrl -> {calls: {source: count}} (running totals since start).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { startFakeDnsServer } from "../test/fakes/dns-server";
import { startFakePackageSources } from "../test/fakes/packages/server";
import { BENCH_DOMAIN_ZONES, BENCH_IP_ZONES, dnsblRecords } from "./dnsbl-targets";

type Hosted = { env: Record<string, string>; calls(): Record<string, number>; close(): Promise<void> };

async function dns(): Promise<Hosted> {
  const server = await startFakeDnsServer({ records: dnsblRecords() });
  let total = 0;
  // The fake logs every query; fold the log into a count so a long run does not grow it without bound.
  const fold = () => {
    total += server.queries.length;
    server.queries.length = 0;
  };
  const timer = setInterval(fold, 1_000);
  return {
    env: {
      SERVICE_DNS_SERVERS: server.address,
      SERVICE_DNSBL_DNS_SERVERS: server.address,
      SERVICE_DNSBL_IP_ZONES: BENCH_IP_ZONES.join(","),
      SERVICE_DNSBL_DOMAIN_ZONES: BENCH_DOMAIN_ZONES.join(","),
    },
    calls: () => {
      fold();
      return { dns: total };
    },
    close: async () => {
      clearInterval(timer);
      await server.close();
    },
  };
}

async function packages(): Promise<Hosted> {
  const fake = await startFakePackageSources();
  return {
    // The advisory endpoint lives on the registry; named explicitly so a user's own setting does not leak in.
    env: { ...fake.env, SERVICE_NPM_ADVISORY_URL: fake.env.SERVICE_NPM_REGISTRY_URL! },
    calls: () => ({ ...fake.requests }),
    close: () => fake.close(),
  };
}

async function main(): Promise<void> {
  const kind = process.argv[2];
  const hosted = kind === "dns" ? await dns() : kind === "packages" ? await packages() : null;
  if (!hosted) throw new Error(`usage: tsx bench/fakes-host.ts dns|packages (got ${kind})`);
  const stats = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ calls: hosted.calls() }));
  });
  await new Promise<void>((r) => stats.listen(0, "127.0.0.1", r));
  const statsUrl = `http://127.0.0.1:${(stats.address() as AddressInfo).port}/stats`;
  console.log(JSON.stringify({ env: hosted.env, statsUrl }));
  const stop = async () => {
    stats.close();
    await hosted.close().catch(() => undefined);
    process.exit(0);
  };
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => void stop());
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
