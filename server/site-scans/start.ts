// POST /scans: vet the target (free when refused), then create the running row, run the scan and wait a few seconds
// for it. A scan that takes longer keeps running and finishes its row; the caller gets its id (202) to poll.
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { isBadHttpPort, parseTargetUrl, targetForbidden, vetTarget } from "../net";
import { scanWaitMs } from "./config";
import { runScan, type ScanTarget } from "./run";
import type { ScanView, Visibility } from "./schemas";
import { createRunningScan, finishScan, toScanView } from "./store";
import { logger } from "../operate/log";

/** Accepts a URL or a bare host ("example.com" means https://example.com/). */
export function parseScanTarget(input: string): ScanTarget | null {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(input) ? input : `https://${input}`;
  const t = parseTargetUrl(withScheme);
  if (!t) return null;
  return { url: t.url, host: t.url.hostname.replace(/^\[|\]$/g, "").toLowerCase() };
}

/** Before any unit is reserved: the SSRF table (400 TARGET_FORBIDDEN), free like every refusal before admission. */
export async function vetScanTargetOrThrow(target: ScanTarget): Promise<void> {
  const port = target.url.port ? Number(target.url.port) : null;
  if (port && isBadHttpPort(port)) throw targetForbidden(`port ${port} is not an HTTP port`);
  const vet = await vetTarget(target.host);
  if (vet.kind === "forbidden") throw targetForbidden(vet.reason);
}

/**
 * After admission: a name the resolver says does not exist is 404 DOMAIN_NOT_FOUND, and the unit counts like any
 * answer a provider (here DNS) gave; only what the request alone decides is free (server/api/input-decisions.ts).
 */
async function assertResolvesOrThrow(target: ScanTarget): Promise<void> {
  const vet = await vetTarget(target.host);
  if (vet.kind === "forbidden") throw targetForbidden(vet.reason);
  if (vet.kind === "unresolved" && vet.notFound)
    throw new AppError("DOMAIN_NOT_FOUND", `${target.host} does not resolve: ${vet.reason}.`);
}

export async function startScan(
  db: Db,
  a: { workspaceId: string; target: ScanTarget; visibility: Visibility },
): Promise<{ scan: ScanView; finished: boolean }> {
  await assertResolvesOrThrow(a.target);
  const row = await createRunningScan(db, {
    workspaceId: a.workspaceId,
    host: a.target.host,
    url: a.target.url.href,
    visibility: a.visibility,
  });
  const work = runScan(a.target)
    .catch((err: unknown) => ({
      ok: false as const,
      error: `The scan stopped: ${(err as Error).message ?? "unknown error"}`,
    }))
    .then((outcome) => finishScan(db, row.id, outcome));
  let timer: NodeJS.Timeout | undefined;
  const waited = await Promise.race([
    work,
    new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), scanWaitMs()))),
  ]);
  clearTimeout(timer);
  if (waited) return { scan: toScanView(waited), finished: true };
  work.catch((err) => logger().error({ err, component: "site-scans", scan_id: row.id }, "scan could not be saved"));
  return { scan: toScanView(row), finished: false };
}
