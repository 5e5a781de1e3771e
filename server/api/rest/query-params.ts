// A request's query as a procedure's input, read by the README's rules ("Requests the API reads") on every route
// that reads the query: the /v1 door (plain-door.ts) and the account routes under /api (server/api/http/reports.ts).
// Text is percent-encoded UTF-8; a parameter that takes one value, sent twice, is refused rather than read as its
// first value (the other would be dropped unseen, as an unknown parameter would be); a number is written in decimal
// digits, since the schemas' coercion (Number()) would also read "0x10", "1e2", " 5" and an empty value (as 0), each
// a typo or a probe rather than a page size. Unknown names are kept: the procedure's input check names them.
import { undecodableQueryParameter } from "./query-text.mjs";

export type QueryRead = { ok: true; value: Record<string, string | string[]> } | { ok: false; problem: string };

export interface QueryKeys {
  /** Parameters that take several values (each sent once per value). */
  arrayKeys: ReadonlySet<string>;
  /** Parameters whose value is a number. */
  numberKeys: ReadonlySet<string>;
}

/** A query parameter's number: an optional minus, digits, and an optional fraction (the schema judges the rest). */
const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * The first value of `key` as the client wrote it in the query, percent-escapes decoded (`+5` stays "+5", not the
 * " 5" a form decoding reads), for a refusal to echo what was sent. Only on that refusal's path.
 */
function rawQueryValue(query: string, key: string): string {
  for (const pair of query.split("&")) {
    const eq = pair.indexOf("=");
    const name = eq < 0 ? pair : pair.slice(0, eq);
    let decoded: string;
    try {
      decoded = decodeURIComponent(name.replace(/\+/g, " "));
    } catch {
      decoded = name;
    }
    if (decoded !== key) continue;
    const raw = eq < 0 ? "" : pair.slice(eq + 1);
    try {
      return decodeURIComponent(raw); // percent-escapes decoded, a "+" left as the client typed it
    } catch {
      return raw;
    }
  }
  return "";
}

/** Reads `query` (without its "?") into input fields, or says what cannot be read, naming the parameter. */
export function readQueryParameters(query: string, keys: QueryKeys): QueryRead {
  const undecodable = undecodableQueryParameter(query);
  if (undecodable !== null)
    return {
      ok: false,
      problem: `${undecodable.name === null ? "A query parameter's name" : `${undecodable.name.slice(0, 40)}: the query parameter`} is not valid percent-encoded UTF-8 text; encode "%" as %25 and send text as UTF-8.`,
    };
  const value: Record<string, string | string[]> = {};
  const params = new URLSearchParams(query);
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    if (all.length > 1 && !keys.arrayKeys.has(key))
      return { ok: false, problem: `${key}: the query parameter was sent ${all.length} times; send it once.` };
    if (keys.numberKeys.has(key) && !DECIMAL.test(all[0]!))
      return {
        ok: false,
        problem: `${key}: expected a number written in decimal digits, got ${JSON.stringify(rawQueryValue(query, key).slice(0, 40))}.`,
      };
    value[key] = keys.arrayKeys.has(key) ? all : all[0]!;
  }
  return { ok: true, value };
}
