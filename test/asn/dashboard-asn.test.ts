// The dashboard's lookup console sends a field the OpenAPI document calls an integer as a JSON number (ConsoleView's
// coerce), and GET /asn/{asn} documents `asn` as an integer; the procedure read only a string, so running "AS number
// lookup" in the console with 15169 answered 400 "AS number expected a string, got a number" (found taking a
// screenshot of the ASN card). The number is read like its text: 15169, "15169" and "AS15169" are one AS.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRdapServer, type FakeRdapServer } from "../fakes/rdap-server";
import { createTestApp, type TestApp } from "../harness";
import { call, ownerAndMember } from "../dashboard/call";

let app: TestApp;
let rdap: FakeRdapServer;
beforeAll(async () => {
  app = await createTestApp();
  rdap = await startRdapServer({});
  process.env.SERVICE_RDAP_BASE_URL = rdap.url;
}, 180_000);
afterAll(async () => {
  delete process.env.SERVICE_RDAP_BASE_URL;
  await rdap.close();
});

describe("AS number lookup from the dashboard console", () => {
  it("takes the AS number as the console sends it, a JSON number, as well as text", async () => {
    const { owner } = await ownerAndMember(app.db, "asn-console", ["suite_starter"]);
    for (const asn of [15169, "15169", "AS15169"]) {
      const r = await call(owner, "asn.asnLookup", { asn }, "query");
      expect(r.message, String(asn)).toBeUndefined();
      expect(r.status, String(asn)).toBe(200);
      expect(r.data, String(asn)).toMatchObject({ asn: 15169, organization: "Google LLC" });
    }
    // Not an AS number, whatever its type: 400 before any unit.
    for (const asn of [0, 15169.5, -1, "AS", true]) {
      const r = await call(owner, "asn.asnLookup", { asn }, "query");
      expect(r.status, String(asn)).toBe(400);
    }
  });
});
