// What a web origin is, as browsers send it in the Origin header: one rule for a publishable key's allowed origins
// (server/keys/keys.ts) and for SERVICE_ALLOWED_ORIGINS (server/env/service.ts, server/api/rest/cors.ts).

/**
 * A web origin as browsers send it in the Origin header: http(s)://host[:port], lower-case, no path, query or
 * credentials ("https://shop.example.com/" is accepted and stored as "https://shop.example.com"). Null otherwise.
 */
export function normalizeWebOrigin(input: string): string | null {
  let u: URL;
  try {
    u = new URL(input.trim());
  } catch {
    return null;
  }
  if (
    (u.protocol !== "https:" && u.protocol !== "http:") ||
    u.username ||
    u.password ||
    u.search ||
    u.hash ||
    (u.pathname !== "/" && u.pathname !== "")
  )
    return null;
  return u.origin.toLowerCase();
}
