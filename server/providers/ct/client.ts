// Certificate-transparency observations for a domain from a crt.sh-compatible JSON API. The operator configures
// the base URL; the response is bounded in time and size and validated before use.
import { z } from "zod";
import { ctBaseUrl, ctMaxBytes, ctTimeoutMs } from "./config";
import { readCapped } from "../../http/read-capped";

const entrySchema = z.object({
  id: z.union([z.number(), z.string()]).optional(),
  issuer_name: z.string().nullish(),
  common_name: z.string().nullish(),
  name_value: z.string(),
  entry_timestamp: z.string().nullish(),
  not_before: z.string().nullish(),
  not_after: z.string().nullish(),
});

export type CtEntry = {
  names: string[];
  issuer: string | null;
  loggedAt: string | null;
  notBefore: string | null;
  notAfter: string | null;
};

export type CtOutcome =
  | { ok: true; entries: CtEntry[]; sourceUrl: string; fetchedAt: Date }
  | { ok: false; reason: string; sourceUrl: string };

/** crt.sh timestamps carry no zone and are UTC. */
function isoUtc(s: string | null | undefined): string | null {
  if (!s) return null;
  const d = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s}Z`);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** Every logged certificate naming the apex or a name below it. */
export async function fetchCtEntries(apex: string): Promise<CtOutcome> {
  const sourceUrl = `${ctBaseUrl()}/?q=${encodeURIComponent(`%.${apex}`)}&output=json`;
  let res: Response;
  try {
    res = await fetch(sourceUrl, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(ctTimeoutMs()),
    });
  } catch (err) {
    const timeout = (err as Error).name === "TimeoutError";
    // In words, as the package sources say it: the runtime's own text ("fetch failed") is no reason to show anyone.
    return { ok: false, reason: timeout ? `no answer within ${ctTimeoutMs()} ms` : "connection failed", sourceUrl };
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    return { ok: false, reason: `HTTP ${res.status}`, sourceUrl };
  }
  let text: string | null;
  try {
    text = (await readCapped(res.body, ctMaxBytes()))?.toString("utf8") ?? null;
  } catch (err) {
    return { ok: false, reason: `the answer was cut off (${(err as Error).message})`, sourceUrl };
  }
  if (text === null) return { ok: false, reason: `the answer exceeds ${ctMaxBytes()} bytes`, sourceUrl };
  let raw: unknown;
  try {
    raw = text.trim() === "" ? [] : JSON.parse(text);
  } catch {
    return { ok: false, reason: "the answer is not JSON", sourceUrl };
  }
  const parsed = z.array(entrySchema).safeParse(raw);
  if (!parsed.success) return { ok: false, reason: "the answer is not a list of certificate entries", sourceUrl };
  const entries = parsed.data.map((e) => ({
    names: [
      ...new Set(
        [...e.name_value.split(/\s+/), e.common_name ?? ""].map((n) => n.trim().toLowerCase()).filter(Boolean),
      ),
    ],
    issuer: e.issuer_name ?? null,
    loggedAt: isoUtc(e.entry_timestamp),
    notBefore: isoUtc(e.not_before),
    notAfter: isoUtc(e.not_after),
  }));
  return { ok: true, entries, sourceUrl, fetchedAt: new Date() };
}
