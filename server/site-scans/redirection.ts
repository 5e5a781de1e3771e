// The redirection test: what http://host/ does. The first redirect should go to https:// on the same host, so the
// browser sees that host's HSTS header before going anywhere else.
import type { SafeFetchResult } from "../net";
import type { Verdict } from "./header-tests";

export function testRedirection(http: SafeFetchResult | null, httpsCertValid: boolean): Verdict {
  const chain = http?.hops.map((h) => h.url).join(" -> ") ?? null;
  if (!http || (http.error && http.hops.length <= 1 && http.hops[0]?.status == null))
    return { result: "redirection-not-needed-no-http", detail: http?.error?.message ?? null };
  const first = http.hops[0]!;
  const host = new URL(first.url).hostname;
  if (!first.location || http.hops.length < 2) return { result: "redirection-missing", detail: chain };
  const second = new URL(http.hops[1]!.url);
  const final = new URL(http.finalUrl);
  if (final.protocol !== "https:" && !http.hops.some((h) => h.url.startsWith("https:")))
    return { result: "redirection-not-to-https", detail: chain };
  if (second.protocol !== "https:") return { result: "redirection-not-to-https-on-initial-redirection", detail: chain };
  if (second.hostname !== host) return { result: "redirection-off-host-from-http", detail: chain };
  if (!httpsCertValid) return { result: "redirection-invalid-cert", detail: chain };
  return { result: "redirection-to-https", detail: chain };
}
