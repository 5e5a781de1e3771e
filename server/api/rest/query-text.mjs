// Whether a /v1 query is text, in plain JavaScript: the REST door (server/api/rest/plain-door.ts) refuses a query
// parameter that is not percent-encoded UTF-8, and the production front (scripts/rest-direct.mjs) reads the same rule
// before it lets Next see such a request, since Next rewrites `%ff` in a query to the U+FFFD it reads (`%EF%BF%BD`)
// before the door could refuse it. One rule, so the two cannot disagree.

/**
 * The first query parameter (its name, null when the name is the part that cannot be read) whose name or value is not
 * percent-encoded UTF-8 (`%ff`, an encoded surrogate `%ED%A0%80`, a stray `%zz`), or null when every one decodes.
 * URLSearchParams reads such bytes as U+FFFD and a stray "%" as itself, so `version=%ff` was looked up (and charged)
 * as "��" while the same bytes in a JSON body or in the path are refused: text is text on every way in (README
 * "Requests the API reads"). A query without "%" costs one indexOf.
 *
 * @param {string} query the query as sent, without its "?"
 * @returns {{ name: string | null } | null}
 */
export function undecodableQueryParameter(query) {
  if (!query.includes("%")) return null;
  for (const pair of query.split("&")) {
    if (!pair.includes("%")) continue;
    const eq = pair.indexOf("=");
    const name = eq < 0 ? pair : pair.slice(0, eq);
    let readable = null;
    try {
      readable = decodeURIComponent(name.replace(/\+/g, " "));
      decodeURIComponent(eq < 0 ? "" : pair.slice(eq + 1));
    } catch {
      return { name: readable };
    }
  }
  return null;
}
