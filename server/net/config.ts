// Settings of outbound connections to user-supplied targets, read at call time so tests can change them.
import { readFileSync } from "node:fs";
import { rootCertificates } from "node:tls";
import { isProductionDeployment } from "../env";
import { numberSetting, upstreamTimeoutMs } from "../env";

const num = (name: string, fallback: number, min = 1, max = Number.MAX_SAFE_INTEGER): number =>
  numberSetting(name, fallback, { min, max });

const flag = (name: string) => /^(1|true|yes|on)$/i.test(process.env[name]?.trim() ?? "");

/**
 * SERVICE_ALLOW_PRIVATE_TARGETS=1 lets tests and local development reach loopback and private networks.
 * In a declared production deployment (SERVICE_ENV=production) it is ignored unless SERVICE_ALLOW_PRIVATE_TARGETS_IN_PRODUCTION=1 says so too: a single stray
 * variable copied from a development .env must not open the internal network of a deployment.
 */
export function allowPrivateTargets(): boolean {
  if (!flag("SERVICE_ALLOW_PRIVATE_TARGETS")) return false;
  if (isProductionDeployment() && !flag("SERVICE_ALLOW_PRIVATE_TARGETS_IN_PRODUCTION")) return false;
  return true;
}

/** "system" (node:dns lookup, as the host resolves) or "configured" (the service's DNS client and SERVICE_DNS_SERVERS). */
export function targetResolverKind(): "system" | "configured" {
  return process.env.SERVICE_TARGET_RESOLVER?.trim().toLowerCase() === "configured" ? "configured" : "system";
}

export const resolveTimeoutMs = () => num("SERVICE_TARGET_RESOLVE_TIMEOUT_MS", 3000, 100, 60_000);
export const connectTimeoutMs = () => num("SERVICE_TARGET_CONNECT_TIMEOUT_MS", 5000, 100, 60_000);
export const requestTimeoutMs = () => num("SERVICE_TARGET_TIMEOUT_MS", upstreamTimeoutMs(), 200, 120_000);
export const maxRedirects = () => num("SERVICE_TARGET_MAX_REDIRECTS", 5, 0, 20);
export const maxResponseBytes = () => num("SERVICE_TARGET_MAX_RESPONSE_BYTES", 1_048_576, 1024, 50 * 1_048_576);

const caCache = new Map<string, string[]>();

/** System roots plus the PEM bundle in SERVICE_EXTRA_CA_FILE (tests put their generated CA there). */
export function trustedCas(): string[] {
  const file = process.env.SERVICE_EXTRA_CA_FILE?.trim() ?? "";
  const cached = caCache.get(file);
  if (cached) return cached;
  const cas = [...rootCertificates];
  if (file) cas.push(readFileSync(file, "utf8"));
  caCache.set(file, cas);
  return cas;
}
