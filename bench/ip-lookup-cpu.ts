// GET /v1/ip/{ip} in-process (issue 43, item 6): the CPU one request costs through the REST door (handleRestRequest:
// authentication, the reservation, the lookup, the answer's JSON, the lookup history), the CPU of the lookup alone
// (getIpReputation), and the process's memory with and without the IP evidence loaded. No HTTP server and no load
// generator share the process's CPU figure, so two revisions can be compared on a busy machine: run this same file
// in a worktree of the other revision (it uses only what every revision since the privacy index has).
//
//   npx tsx --expose-gc bench/ip-lookup-cpu.ts >/dev/null  # prints one JSON line on stderr
//   BENCH_IP_REQUESTS=4000 BENCH_IP_ROUNDS=7 npx tsx --expose-gc bench/ip-lookup-cpu.ts
//   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npx tsx --expose-gc bench/ip-lookup-cpu.ts
//
// Each round sends BENCH_IP_REQUESTS requests one after another over a fixed mix of addresses (listed and unlisted,
// IPv4 and IPv6, the same addresses in every revision) and reads process.cpuUsage() (user + system) around them; the
// median round is reported. Memory: RSS and heap after a full collection, once when the store and the modules are
// up but no IP evidence is loaded, after the privacy index alone (loadPrivacyIndex: every evidence list's ranges), and
// after warmIpFeeds() (the routing tables and geolocation too).
import { useBenchStore } from "./runner-store";

const REQUESTS = Math.max(100, Number(process.env.BENCH_IP_REQUESTS ?? 2000));
const ROUNDS = Math.max(3, Number(process.env.BENCH_IP_ROUNDS ?? 7));

// A fixed mix: provider exits, VPN and hosting networks, a scanner, cloud, Tor-era lists, and home connections.
const MIX = [
  "23.144.160.67", // Mullvad exit
  "37.19.197.131", // PIA exit
  "2.56.16.5", // M247
  "2001:550:1d05::5", // M247, IPv6
  "104.234.109.5", // QuadraNet
  "162.142.125.1", // Censys
  "2a00:5980:93::130", // CIRCL scanner, IPv6
  "3.5.140.2", // AWS
  "8.8.8.8",
  "1.1.1.1",
  "73.162.1.1", // Comcast
  "2.58.100.5", // Deutsche Telekom
  "2001:558::1", // Comcast IPv6
  "2a02:8108::1", // Vodafone Germany IPv6
  "81.2.69.142",
  "5.80.0.1", // BT
];

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const mib = (n: number) => Math.round((n / 1048576) * 10) / 10;
function memory() {
  gc();
  gc();
  const m = process.memoryUsage();
  return { rssMiB: mib(m.rss), heapMiB: mib(m.heapUsed), externalMiB: mib(m.external + m.arrayBuffers) };
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cpuUs = (from: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(from);
  return d.user + d.system;
};

async function main() {
  const store = useBenchStore("iplookup");
  const { getDb, closeDb } = await import("../server/db/client");
  const { createWorkspace } = await import("../server/workspaces/workspaces");
  const { handleRestRequest } = await import("../server/api/rest/handler");
  const { getIpReputation, warmIpFeeds } = await import("../server/ip/reputation");
  const { loadPrivacyIndex } = await import("../server/ip/privacy");
  const db = await getDb();
  const ws = await createWorkspace(db, { name: "ip lookup bench", plans: ["lookups_growth"] });
  const before = memory();
  await loadPrivacyIndex();
  const privacyIndex = memory();
  await warmIpFeeds();
  const after = memory();

  const get = async (ip: string) => {
    const res = await handleRestRequest(
      new Request(`http://127.0.0.1:3000/v1/ip/${encodeURIComponent(ip)}`, {
        headers: { authorization: `Bearer ${ws.apiKey}` },
      }),
    );
    if (res.status !== 200) throw new Error(`GET /v1/ip/${ip}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  // Warm-up: the JIT, the statements' plans, every address once.
  for (let i = 0; i < 400; i++) await get(MIX[i % MIX.length]!);
  const route: number[] = [];
  const lookup: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    let t = process.cpuUsage();
    for (let i = 0; i < REQUESTS; i++) await get(MIX[i % MIX.length]!);
    route.push(cpuUs(t) / REQUESTS);
    t = process.cpuUsage();
    for (let i = 0; i < REQUESTS * 5; i++) await getIpReputation(MIX[i % MIX.length]!);
    lookup.push(cpuUs(t) / (REQUESTS * 5));
  }
  const round = (n: number) => Math.round(n * 10) / 10;
  // On stderr: stdout carries the request log lines, as the production server writes them.
  console.error(
    JSON.stringify({
      store,
      requests: REQUESTS,
      rounds: ROUNDS,
      routeCpuUsPerRequest: round(median(route)),
      routeCpuUsRounds: route.map(round),
      lookupCpuUsPerCall: round(median(lookup)),
      lookupCpuUsRounds: lookup.map(round),
      memoryBeforeIpEvidence: before,
      memoryAfterPrivacyIndex: privacyIndex,
      memoryAfterIpEvidence: after,
      privacyIndexRssMiB: round(privacyIndex.rssMiB - before.rssMiB),
      privacyIndexHeapMiB: round(privacyIndex.heapMiB - before.heapMiB),
      ipEvidenceRssMiB: round(after.rssMiB - before.rssMiB),
      load: (await import("node:os")).loadavg().map(round),
    }),
  );
  await closeDb();
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
