// One RDAP query (RFC 9082): GET <server>/<path> with the RDAP media type and a timeout. The outcome is typed:
// an answer, "not found" (the registry has no such object), or "unavailable" with a reason a person can read.
import { rdapTimeoutMs } from "./config";

export type RdapObject = Record<string, unknown>;

export type RdapOutcome =
  | { status: "ok"; body: RdapObject; url: string; fetchedAt: Date }
  | { status: "not_found"; url: string }
  | { status: "unavailable"; url: string; reason: string };

export async function queryRdap(baseUrl: string, path: string): Promise<RdapOutcome> {
  const url = new URL(path, baseUrl).toString();
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { accept: "application/rdap+json, application/json" },
      signal: AbortSignal.timeout(rdapTimeoutMs()),
      redirect: "follow", // RIRs redirect queries for space another RIR manages
    });
  } catch (err) {
    const e = err as Error;
    // In words: the system's error ("getaddrinfo ENOTFOUND rdap.example", "connect ECONNREFUSED 10.0.0.5:443") names
    // the address it tried, which may be an operator's own RDAP server (SERVICE_RDAP_BASE_URL), and reaches answers
    // (a domain's registrationReason) and the dashboard.
    const reason =
      e.name === "TimeoutError"
        ? `RDAP server did not answer within ${rdapTimeoutMs()} ms`
        : "RDAP server could not be reached";
    return { status: "unavailable", url, reason };
  }
  if (res.status === 404 || res.status === 410) {
    await res.body?.cancel();
    return { status: "not_found", url };
  }
  if (!res.ok) {
    await res.body?.cancel();
    const why = res.status === 429 ? "rate limited by the RDAP server" : `RDAP server answered HTTP ${res.status}`;
    return { status: "unavailable", url, reason: why };
  }
  try {
    const body = (await res.json()) as unknown;
    if (!body || typeof body !== "object" || Array.isArray(body))
      return { status: "unavailable", url, reason: "RDAP server sent no RDAP object" };
    return { status: "ok", body: body as RdapObject, url: res.url || url, fetchedAt: new Date() };
  } catch {
    return { status: "unavailable", url, reason: "RDAP server sent malformed JSON" };
  }
}
