// Settings of protected links, read at call time so tests (and operators) can change them without a restart.
import { numberSetting } from "../env";

const num = (name: string, fallback: number, min: number, max: number): number =>
  numberSetting(name, fallback, { min, max });

/** Creations per window for an anonymous caller (per client address). */
export const anonymousCreateLimit = () => num("SERVICE_LINKS_ANON_RATE_LIMIT", 10, 1, 1_000_000);
/** Creations per window for a workspace (all its keys together). */
export const workspaceCreateLimit = () => num("SERVICE_LINKS_KEY_RATE_LIMIT", 120, 1, 1_000_000);
export const createWindowSeconds = () => num("SERVICE_LINKS_RATE_WINDOW_SECONDS", 60, 1, 86_400);

/** Bound on resolving the destination host for the SSRF guard; a slow name is let through as unresolved. */
export const resolveTimeoutMs = () => num("SERVICE_LINKS_RESOLVE_TIMEOUT_MS", 1500, 50, 30_000);
/** Bound on the destination's domain-blocklist check; a slow list makes the verdict "incomplete", never a refusal. */
export const safetyTimeoutMs = () => num("SERVICE_LINKS_SAFETY_TIMEOUT_MS", 1500, 50, 30_000);
/** SERVICE_LINKS_SAFETY_CHECK=0 turns the blocklist check off (the answer then says "skipped"). */
export const safetyCheckEnabled = () =>
  !/^(0|false|no|off)$/i.test(process.env.SERVICE_LINKS_SAFETY_CHECK?.trim() ?? "");

/** Base of short links: SERVICE_PUBLIC_URL when set, else the origin the request was addressed to. */
export function publicBase(requestOrigin: string | null): string {
  const configured = process.env.SERVICE_PUBLIC_URL?.trim();
  if (configured) return configured.replace(/\/+$/, "");
  return requestOrigin ?? `http://localhost:${process.env.PORT ?? "3000"}`;
}

/** The public address of a link: `<base>/go/<slug>`. */
export const shortUrl = (slug: string, requestOrigin: string | null): string =>
  `${publicBase(requestOrigin)}/go/${slug}`;
