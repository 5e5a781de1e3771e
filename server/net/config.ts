// Settings of outbound connections to user-supplied targets, read at call time so tests can change them.
import { readFileSync } from "node:fs";
import { rootCertificates } from "node:tls";
import { isProductionDeployment, setting } from "../env";

/**
 * SERVICE_ALLOW_PRIVATE_TARGETS=1 lets tests and local development reach loopback and private networks.
 * In a declared production deployment (SERVICE_ENV=production) it is ignored unless SERVICE_ALLOW_PRIVATE_TARGETS_IN_PRODUCTION=1 says so too: a single stray
 * variable copied from a development .env must not open the internal network of a deployment.
 */
export function allowPrivateTargets(): boolean {
  if (!setting("SERVICE_ALLOW_PRIVATE_TARGETS")) return false;
  if (isProductionDeployment() && !setting("SERVICE_ALLOW_PRIVATE_TARGETS_IN_PRODUCTION")) return false;
  return true;
}

/** "system" (node:dns lookup, as the host resolves) or "configured" (the service's DNS client and SERVICE_DNS_SERVERS). */
export function targetResolverKind(): "system" | "configured" {
  return setting("SERVICE_TARGET_RESOLVER");
}

export const resolveTimeoutMs = () => setting("SERVICE_TARGET_RESOLVE_TIMEOUT_MS");
export const connectTimeoutMs = () => setting("SERVICE_TARGET_CONNECT_TIMEOUT_MS");
export const requestTimeoutMs = () => setting("SERVICE_TARGET_TIMEOUT_MS");
export const maxRedirects = () => setting("SERVICE_TARGET_MAX_REDIRECTS");
export const maxResponseBytes = () => setting("SERVICE_TARGET_MAX_RESPONSE_BYTES");

const caCache = new Map<string, string[]>();

/** System roots plus the PEM bundle in SERVICE_EXTRA_CA_FILE (tests put their generated CA there). */
export function trustedCas(): string[] {
  const file = setting("SERVICE_EXTRA_CA_FILE") ?? "";
  const cached = caCache.get(file);
  if (cached) return cached;
  const cas = [...rootCertificates];
  if (file) cas.push(readFileSync(file, "utf8"));
  caCache.set(file, cas);
  return cas;
}
