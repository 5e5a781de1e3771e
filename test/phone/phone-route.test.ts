// GET /v1/phone/{number} through the real REST API and the dashboard's tRPC door: numbers of several countries and
// types, an invalid number (an answer, counted), malformed input (400, free), the capability, and the history entry
// that never holds the whole number.
import { beforeAll, describe, expect, it } from "vitest";
import { call, ownerAndMember } from "../dashboard/call";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

const lookup = (key: string, number: string, query = "") =>
  app.request("GET", `/v1/phone/${encodeURIComponent(number)}${query}`, { key });

describe("GET /v1/phone/{number}", () => {
  it.each([
    ["+12015550123", "", { valid: true, e164: "+12015550123", country: "US", type: "fixed_line_or_mobile" }],
    ["+447400123456", "", { valid: true, e164: "+447400123456", country: "GB", type: "mobile" }],
    ["07400 123456", "?country=GB", { valid: true, e164: "+447400123456", country: "GB", type: "mobile" }],
    ["+449098790123", "", { valid: true, e164: "+449098790123", country: "GB", type: "premium_rate" }],
    ["+4930123456", "", { valid: true, e164: "+4930123456", country: "DE", type: "fixed_line" }],
    ["+4412", "", { valid: false, e164: null, country: null, type: "unknown", possible: false }],
  ])("%s%s answers %o for one unit", async (number, query, expected) => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const r = await lookup(ws.apiKey, number, query);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ number, ...expected });
    expect(r.body.sources).toEqual([
      {
        name: "libphonenumber-js",
        version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
        metadata: "max",
        license: expect.any(String),
      },
    ]);
    expect(r.headers.get("x-service-quota-used")).toBe("1");
    expect(r.headers.get("cache-control")).toContain("no-store");
    expect(await app.used(ws.workspaceId)).toBe(1);
  });

  it("takes + unencoded in the path", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const r = await app.request("GET", "/v1/phone/+447400123456", { key: ws.apiKey });
    expect(r.status).toBe(200);
    expect(r.body.e164).toBe("+447400123456");
  });

  it("does not read ?country beside a number with +, as its description says (an empty one is none)", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    for (const query of ["?country=US", "?country="]) {
      const r = await lookup(ws.apiKey, "+447400123456", query);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ valid: true, e164: "+447400123456", country: "GB" });
    }
  });

  it.each([
    ["not-a-number", "", /only digits/],
    [`+1${"2".repeat(44)}`, "", /longer than 40/],
    // The bad field is the country, and the message names it, not the number.
    [
      "07400123456",
      "?country=XX",
      /^country: "XX" is not an ISO 3166-1 alpha-2 country code: send one such as US or GB/,
    ],
    // A country that is no country is refused beside an E.164 number too, where it is not read: never charged for.
    ["+14155550100", "?country=1.5", /^country: "1.5" is not an ISO 3166-1 alpha-2 country code/],
    ["+14155550100", "?country=ZZ", /^country: "ZZ" is not an ISO 3166-1 alpha-2 country code/],
    ["07400123456", "", /national number without a country/],
    ["+1234567890123456789", "", /more than 17 digits/],
  ])("%s%s is 400 INVALID_REQUEST and costs nothing", async (number, query, message) => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const r = await lookup(ws.apiKey, number, query);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("INVALID_REQUEST");
    expect(r.body.error.message).toMatch(message);
    expect(await app.used(ws.workspaceId)).toBe(0);
    expect(await app.ledgerCount(ws.workspaceId)).toBe(0);
  });

  it("needs a Suite or Lookups plan: Free gets 403 CAPABILITY_REQUIRED and no unit", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const r = await lookup(ws.apiKey, "+447400123456");
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe("CAPABILITY_REQUIRED");
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it("keeps a history entry with the number masked", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    expect((await lookup(ws.apiKey, "+447400123456")).status).toBe(200);
    await expect
      .poll(() => app.db.lookupHistory.findMany({ where: { workspaceId: ws.workspaceId } }))
      .toEqual([expect.objectContaining({ endpoint: "phone.lookup", target: "+44…56", units: 1 })]);
    const history = await app.db.lookupHistory.findMany({ where: { workspaceId: ws.workspaceId } });
    expect(JSON.stringify(history)).not.toContain("7400123456");
  });

  it("answers the same through the dashboard's tRPC door", async () => {
    const { member } = await ownerAndMember(app.db, "phone", ["suite_starter"]);
    const ok = await call(member, "phone.phoneLookup", { number: "+12015550123" }, "query");
    expect(ok.status).toBe(200);
    expect(ok.data).toMatchObject({ valid: true, country: "US", type: "fixed_line_or_mobile" });
    const national = await call(member, "phone.phoneLookup", { number: "020 7946 0018", country: "gb" }, "query");
    expect(national.data).toMatchObject({ valid: true, e164: "+442079460018", country: "GB", type: "fixed_line" });
    const bad = await call(member, "phone.phoneLookup", { number: "call me" }, "query");
    expect([bad.status, bad.code]).toEqual([400, "INVALID_REQUEST"]);
    expect(await app.used(member.workspaceId)).toBe(2);
  });
});
