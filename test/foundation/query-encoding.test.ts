// A query parameter is text like any other input: percent-escapes that do not decode to UTF-8 (`%ff`, an encoded
// surrogate half `%ED%A0%80`, a stray `%zz`) are 400 INVALID_REQUEST naming the parameter, before any unit, as the
// same bytes are in a JSON body or in the path. URLSearchParams read them as U+FFFD (or as a literal "%"), so
// `GET /v1/vulnerabilities/kev/?query=%ff` searched for "�" and charged a unit, and a package report's `version=%ff`
// was looked up upstream as "��" and charged its 404. Both stores: DATABASE_URL selects PostgreSQL.
import { beforeAll, describe, expect, it } from "vitest";
import { flushLookupHistory } from "../../server/history/history";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

describe("a query parameter that is not percent-encoded UTF-8", () => {
  it("is refused with 400 INVALID_REQUEST naming it, and costs nothing", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const cases: [string, string][] = [
      ["/v1/vulnerabilities/kev/?query=%ff", "query"],
      ["/v1/vulnerabilities/kev/?vendor=%ED%A0%80", "vendor"],
      ["/v1/vulnerabilities/kev/?product=100%zz", "product"],
      ["/v1/vulnerabilities/kev/?limit=5&query=%C3", "query"],
      ["/v1/dns/lookup?domain=example.com&type=%ff", "type"],
      ["/v1/lookups/history?cursor=%", "cursor"],
    ];
    for (const [path, name] of cases) {
      const res = await app.request("GET", path, { key: ws.apiKey });
      expect(res.status, path).toBe(400);
      expect(res.body, path).toEqual({
        error: {
          code: "INVALID_REQUEST",
          message: `${name}: the query parameter is not valid percent-encoded UTF-8 text; encode "%" as %25 and send text as UTF-8.`,
        },
      });
    }
    // A name that cannot be read is refused too, without echoing it.
    const badName = await app.request("GET", "/v1/vulnerabilities/kev/?%ff=1", { key: ws.apiKey });
    expect(badName.status).toBe(400);
    expect(badName.body.error.message).toBe(
      `A query parameter's name is not valid percent-encoded UTF-8 text; encode "%" as %25 and send text as UTF-8.`,
    );
    expect(await app.used(ws.workspaceId)).toBe(0);
    expect(await app.ledgerCount(ws.workspaceId)).toBe(0);
    await flushLookupHistory();
    expect(await app.db.lookupHistory.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
  });

  it("still reads well-formed escapes: %25, UTF-8 letters and + as sent", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    for (const path of [
      "/v1/vulnerabilities/kev/?query=100%25",
      "/v1/vulnerabilities/kev/?vendor=M%C3%BCnchen",
      "/v1/vulnerabilities/kev/?query=log4j&limit=1",
    ]) {
      const res = await app.request("GET", path, { key: ws.apiKey });
      expect(res.status, path).toBe(200);
    }
    expect(await app.used(ws.workspaceId)).toBe(3);
  });

  it("answers a key that is not valid with 401 first, as every refusal of input follows authentication", async () => {
    const res = await app.request("GET", "/v1/vulnerabilities/kev/?query=%ff", { key: "svc_live_nope" });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("UNAUTHORIZED");
  });
});
