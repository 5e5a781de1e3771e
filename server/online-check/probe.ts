// One reachability probe from one location. The local probe requests the URL from this server through the SSRF
// guard; a remote probe agent is asked over HTTP(S) with the same request and must answer with a ProbeResult.
import { safeFetch } from "../net";
import { onlineCheckTimeoutMs, probeToken, type ProbeLocation } from "./config";
import { probeResultSchema, type ProbeResult } from "./schemas";

/** Runs the check from this process; also what a remote probe agent runs when it is this same service. */
export async function runLocalProbe(url: string, location = "local"): Promise<ProbeResult> {
  const checkedAt = new Date().toISOString();
  const r = await safeFetch(url, {
    method: "GET",
    verifyTls: false,
    timeoutMs: onlineCheckTimeoutMs(),
    maxBytes: 16 * 1024,
  });
  const error: ProbeResult["error"] =
    r.outcome === "blocked_redirect"
      ? {
          kind: "blocked_redirect",
          message: `Redirect to ${r.blockedRedirect?.url} refused: ${r.blockedRedirect?.reason}`,
        }
      : r.outcome === "too_many_redirects"
        ? { kind: "too_many_redirects", message: `Stopped after ${r.hops.length - 1} redirects.` }
        : r.error;
  return {
    location,
    reachable: r.status !== null,
    up: r.status !== null && r.status < 500,
    status: r.status,
    finalUrl: r.status !== null ? r.finalUrl : null,
    redirects: Math.max(0, r.hops.filter((h) => h.status !== null).length - 1),
    address: r.address,
    timing: r.timing,
    error,
    checkedAt,
  };
}

const remoteAnswer = probeResultSchema.omit({ location: true });

async function runRemoteProbe(url: string, loc: Extract<ProbeLocation, { kind: "remote" }>): Promise<ProbeResult> {
  const checkedAt = new Date().toISOString();
  const unavailable = (message: string): ProbeResult => ({
    location: loc.name,
    reachable: false,
    up: false,
    status: null,
    finalUrl: null,
    redirects: 0,
    address: null,
    timing: null,
    error: { kind: "probe_unavailable", message },
    checkedAt,
  });
  try {
    const token = probeToken();
    const res = await fetch(loc.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ url }),
      signal: AbortSignal.timeout(onlineCheckTimeoutMs() + 2000),
    });
    if (!res.ok) return unavailable(`The probe agent answered HTTP ${res.status}.`);
    const parsed = remoteAnswer.safeParse(await res.json());
    if (!parsed.success) return unavailable("The probe agent sent an answer this service does not understand.");
    return { ...parsed.data, location: loc.name };
  } catch (err) {
    return unavailable(
      `The probe agent could not be reached (${(err as Error).name === "TimeoutError" ? "timeout" : (err as Error).message}).`,
    );
  }
}

export function runProbe(url: string, loc: ProbeLocation): Promise<ProbeResult> {
  return loc.kind === "local" ? runLocalProbe(url, loc.name) : runRemoteProbe(url, loc);
}
