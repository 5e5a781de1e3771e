// Settings of protected links, read at call time so tests (and operators) can change them without a restart.
import { setting } from "../env";

/** Creations per window for an anonymous caller (per client address). */
export const anonymousCreateLimit = () => setting("SERVICE_LINKS_ANON_RATE_LIMIT");
/** Creations per window for a workspace (all its keys together). */
export const workspaceCreateLimit = () => setting("SERVICE_LINKS_KEY_RATE_LIMIT");
export const createWindowSeconds = () => setting("SERVICE_LINKS_RATE_WINDOW_SECONDS");

/** Bound on resolving the destination host for the SSRF guard; a slow name is let through as unresolved. */
export const resolveTimeoutMs = () => setting("SERVICE_LINKS_RESOLVE_TIMEOUT_MS");
/** Bound on the destination's domain-blocklist check; a slow list makes the verdict "incomplete", never a refusal. */
export const safetyTimeoutMs = () => setting("SERVICE_LINKS_SAFETY_TIMEOUT_MS");
/** SERVICE_LINKS_SAFETY_CHECK=0 turns the blocklist check off (the answer then says "skipped"). */
export const safetyCheckEnabled = () => setting("SERVICE_LINKS_SAFETY_CHECK");

/** Base of short links: SERVICE_PUBLIC_URL when set, else the origin the request was addressed to. */
export function publicBase(requestOrigin: string | null): string {
  const configured = setting("SERVICE_PUBLIC_URL");
  if (configured) return configured.replace(/\/+$/, "");
  return requestOrigin ?? `http://localhost:${setting("PORT")}`;
}

/** The public address of a link: `<base>/go/<slug>`. */
export const shortUrl = (slug: string, requestOrigin: string | null): string =>
  `${publicBase(requestOrigin)}/go/${slug}`;
