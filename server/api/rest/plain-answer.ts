// What the REST door (./plain-door.ts) answers with, shaped as every answer of the service is
// (server/api/http/respond.ts): response headers by lower-case name, and an error's answer.
import { KEY_CHALLENGE } from "../../keys/authenticate";
import { copyProcedureHeaders, errorParts, JSON_TYPE } from "../http/respond";

/** Response headers by lower-case name: those the ladder and the procedure set, and the answer's own. */
export class AnswerHeaders {
  private readonly values = new Map<string, string>();
  constructor(initial: Record<string, string> = {}) {
    this.setAll(initial);
  }
  get(name: string): string | null {
    return this.values.get(name.toLowerCase()) ?? null;
  }
  has(name: string): boolean {
    return this.values.has(name.toLowerCase());
  }
  set(name: string, value: string): void {
    this.values.set(name.toLowerCase(), value);
  }
  /** Sets each of `values` (a header group: CORS, quota). */
  setAll(values: Record<string, string>): void {
    for (const [k, v] of Object.entries(values)) this.set(k, v);
  }
  append(name: string, value: string): void {
    const had = this.get(name);
    this.set(name, had === null ? value : `${had}, ${value}`);
  }
  delete(name: string): void {
    this.values.delete(name.toLowerCase());
  }
  forEach(fn: (value: string, name: string) => void): void {
    this.values.forEach(fn);
  }
  toRecord(): Record<string, string> {
    return Object.fromEntries(this.values);
  }
}

/**
 * An error's plain answer: the answer's headers so far (`out`: the starting headers, CORS), the procedure's own (on
 * an error, not the quota headers: a refused request consumed nothing), the error's own and the JSON type;
 * `undelivered` refunds an admitted request's units.
 */
export function plainErrorAnswer(
  err: unknown,
  out: AnswerHeaders,
  requestId: string,
  own: AnswerHeaders | null,
  undelivered: (() => void) | null,
) {
  copyProcedureHeaders(own, out, "error");
  const { status, body, headers: extra } = errorParts(err, requestId, "rest");
  out.setAll(extra);
  // Every 401 names how to authenticate (RFC 9110 §15.5.2); a key's refusal carries its own (with RFC 6750's error).
  if (status === 401 && !out.has("www-authenticate")) out.set("www-authenticate", KEY_CHALLENGE);
  out.set("content-type", JSON_TYPE);
  return { status, headers: out.toRecord(), body: JSON.stringify(body), undelivered, errorCode: body.error.code };
}
