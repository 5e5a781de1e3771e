// tls: the certificate's expiry against the thresholds (a bucket, so the state changes when a threshold is
// crossed, not every day), whether the chain verifies and the name matches, and the protocol negotiated.
// Runs GET /host/{host}/ssl (hosts.hostSsl) and its SSRF guard.
import type { SslResult } from "../../hosts/schemas";
import { tlsHostOf } from "../target";
import { worst, type CheckSpec, type Severity } from "./types";

const OLD_PROTOCOLS = new Set(["TLSv1", "TLSv1.1", "SSLv3"]);

/** "ok", "expired", or "within_<n>_days" for the smallest threshold `daysLeft` is within. */
export function expiryBucket(daysLeft: number, thresholds: number[]): string {
  if (daysLeft < 0) return "expired";
  const within = thresholds.filter((t) => daysLeft <= t).sort((a, b) => a - b);
  return within.length ? `within_${within[0]}_days` : "ok";
}

export const tlsCheck: CheckSpec = {
  type: "tls",
  about: "tls: certificate expiry within `thresholds.tls_expiry_days` (default [21, 7]), chain, name and protocol",
  needsName: false,
  procedure: "hosts.hostSsl",
  calls: (t) => [{ host: tlsHostOf(t) }],
  state([r]: SslResult[], { thresholds }) {
    if (!r!.connected || !r!.certificate)
      return { state: { connected: false, error: r!.error?.kind ?? "unknown" }, severity: "critical" };
    const expiry = expiryBucket(r!.certificate.daysLeft, thresholds.tls_expiry_days);
    const smallest = Math.min(...thresholds.tls_expiry_days);
    const expirySeverity: Severity =
      expiry === "ok" ? "ok" : expiry === "expired" || expiry === `within_${smallest}_days` ? "critical" : "warning";
    const state = {
      connected: true,
      expiry,
      chain_valid: r!.chainVerified,
      name_matches: r!.nameMatches,
      protocol: r!.protocol,
    };
    return {
      state,
      severity: worst(
        expirySeverity,
        r!.chainVerified === false || r!.nameMatches === false ? "critical" : "ok",
        r!.protocol && OLD_PROTOCOLS.has(r!.protocol) ? "warning" : "ok",
      ),
    };
  },
};
