// POST /online-check: the URL probed from every configured location in parallel; every probe is bounded, so the
// answer arrives within one probe timeout whatever the locations do.
import { parseFetchUrlOrThrow } from "../net";
import { probeLocations } from "./config";
import { runProbe } from "./probe";
import type { OnlineCheckResult } from "./schemas";

export async function runOnlineCheck(url: string): Promise<OnlineCheckResult> {
  const target = parseFetchUrlOrThrow(url);
  const checkedAt = new Date().toISOString();
  const locations = probeLocations();
  const results = await Promise.all(locations.map((loc) => runProbe(target.url.href, loc)));
  const upLocations = results.filter((r) => r.up).length;
  return {
    url: target.url.href,
    online: upLocations > 0,
    upLocations,
    totalLocations: results.length,
    locations: results,
    checkedAt,
    sources: locations.map((l, i) => ({
      name: "http-probe",
      detail: l.kind === "local" ? `${l.name} (this server)` : `${l.name} (remote probe agent)`,
      fetchedAt: results[i]!.checkedAt,
    })),
  };
}
