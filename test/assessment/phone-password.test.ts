// /assess with a phone number and the caller's password verdict (issue 45, items 3 and 5): a number is read in its
// plan (a national one in phone_country, else the IP address's country); an invalid number is a signal with a weight
// and a reason, never a 400; a number from another country than the address is a signal too; the facts phone.valid,
// phone.type, phone.country_matches_ip and password_compromised reach the rules. Both /v1 doors and the dashboard.
import { describe, expect, it } from "vitest";
import { handleRestRequest } from "../../server/api/rest/handler";
import { call, ownerAndMember } from "../dashboard/call";
import { CHROME_UA, CLEAN_IP, useAssessmentApp } from "./setup";

const { app } = useAssessmentApp();
/** A Deutsche Telekom (residential, DE) address. */
const DE_IP = "91.64.1.1";
/** A BT (residential, GB) address. */
const GB_IP = "86.128.0.1";

const assess = (key: string, body: Record<string, unknown>) =>
  app().request("POST", "/v1/assess", { key, body: { event: "signup", ip: CLEAN_IP, user_agent: CHROME_UA, ...body } });
const codes = (r: { body: { signals: { code: string }[] } }) => r.body.signals.map((s) => s.code);
const signal = (r: { body: { signals: { code: string }[] } }, code: string) =>
  r.body.signals.find((s) => s.code === code) as { code: string; weight: number; reason: string } | undefined;

describe("phone and password_compromised in /assess", () => {
  it("reads an E.164 number and a national one in the IP address's country, with no signal when it fits", async () => {
    const ws = await app().seedWorkspace();
    for (const phone of ["+12015550123", "(201) 555-0123"]) {
      const r = await assess(ws.apiKey, { phone });
      expect(r.status).toBe(200);
      expect(r.body.phone).toEqual({
        number: phone,
        valid: true,
        e164: "+12015550123",
        country: "US",
        type: "fixed_line_or_mobile",
        possible: true,
        country_matches_ip: true,
      });
      expect(codes(r).filter((c) => c.startsWith("phone_"))).toEqual([]);
      expect(r.body.sources.map((s: { name: string }) => s.name)).toContain("libphonenumber-js");
    }
    // Without a phone the answer says so, and there is no phone fact.
    const none = await assess(ws.apiKey, {});
    expect(none.body.phone).toBeNull();
  });

  it("reads a national number in phone_country, and flags a country other than the address's", async () => {
    const ws = await app().seedWorkspace();
    const r = await assess(ws.apiKey, { phone: "07400 123456", phone_country: "gb" });
    expect(r.body.phone).toMatchObject({ valid: true, e164: "+447400123456", country: "GB", type: "mobile" });
    expect(r.body.phone.country_matches_ip).toBe(false);
    const s = signal(r, "phone_country_mismatch");
    expect(s?.weight).toBeGreaterThan(0);
    expect(s?.reason).toContain("from the United Kingdom but the IP address is in the United States");
    // The same number from a German address in GB's plan is still GB; from a UK number's own country no mismatch.
    const de = await assess(ws.apiKey, { phone: "+447400123456", ip: DE_IP });
    expect(de.body.phone.country_matches_ip).toBe(false);
  });

  it("an invalid number is a signal with its weight and reason, not a 400", async () => {
    const ws = await app().seedWorkspace();
    const r = await assess(ws.apiKey, { phone: "+4412" });
    expect(r.status).toBe(200);
    expect(r.body.phone).toMatchObject({ valid: false, e164: null, type: "unknown", country_matches_ip: null });
    const s = signal(r, "phone_invalid");
    expect(s?.weight).toBeGreaterThan(0);
    expect(s?.reason).toContain("+4412 is not a valid number in any numbering plan");
    // Written with a slash, as German numbers often are, it is read like GET /phone/{number} reads it, not refused.
    const slashed = await assess(ws.apiKey, { phone: "030/1234567", phone_country: "DE" });
    expect(slashed.status).toBe(200);
    expect(slashed.body.phone).toMatchObject({ valid: true, e164: "+49301234567", country: "DE", type: "fixed_line" });
    // A national number that does not exist in the address's plan (US numbers never start with 0 or 1).
    const national = await assess(ws.apiKey, { phone: "0123 4567" });
    expect(signal(national, "phone_invalid")?.reason).toContain(
      "not a valid number in the numbering plan of the United States, the IP address's country (send phone_country to read it in another)",
    );
    // From an address with no country (a private one) a national number is read in no plan: the reason says it could
    // not be checked, not that the number cannot receive a call (07400 123456 is a UK mobile).
    const unread = signal(await assess(ws.apiKey, { phone: "07400 123456", ip: "10.0.0.8" }), "phone_invalid");
    expect(unread?.reason).toBe(
      "The phone number 07400 123456 is a national number, and neither phone_country nor the IP address's country says which plan to read it in: it could not be checked. Send phone_country, or the number in E.164 (+ and the country calling code).",
    );
    // A short number is digits too: an invalid number (a signal), as GET /phone/{number} reads it, not a 400 that
    // calls it not digits; only a value with fewer than 2 digits, or none, is refused.
    for (const short of ["911", "12"]) {
      const r = await assess(ws.apiKey, { phone: short });
      expect(r.status, short).toBe(200);
      expect(r.body.phone, short).toMatchObject({ number: short, valid: false });
      expect(signal(r, "phone_invalid"), short).toBeDefined();
    }
    for (const [bad, message] of [
      ["7", "phone must hold at least 2 digits"],
      ["((", "phone must hold at least 2 digits"],
      ["call me", "phone must be digits (with spaces, ( ) . - /) and an optional leading +"],
    ] as const) {
      const r = await assess(ws.apiKey, { phone: bad });
      expect(r.status, bad).toBe(400);
      expect(r.body.error, bad).toEqual({ code: "INVALID_REQUEST", message });
    }
    const inCountry = await assess(ws.apiKey, { phone: "0123 4567", phone_country: "us" });
    expect(signal(inCountry, "phone_invalid")?.reason).toContain(
      "not a valid number in the numbering plan of the United States (phone_country)",
    );
  });

  it("a number of a territory in its country's numbering plan fits an address there: no mismatch", async () => {
    const ws = await app().seedWorkspace();
    // Guernsey, Isle of Man and Jersey mobiles (+44) from a UK address; Puerto Rico (+1) from a US one.
    for (const [phone, ip, country] of [
      ["+447781123456", GB_IP, "GG"],
      ["+447624123456", GB_IP, "IM"],
      ["+447797123456", GB_IP, "JE"],
      ["+17875551234", undefined, "PR"],
    ] as const) {
      const r = await assess(ws.apiKey, { phone, ...(ip ? { ip } : {}) });
      expect(r.body.phone, phone).toMatchObject({ valid: true, country, country_matches_ip: true });
      expect(signal(r, "phone_country_mismatch"), phone).toBeUndefined();
    }
    // A Canadian number from a US address is another country's: a mismatch, named in words.
    const ca = await assess(ws.apiKey, { phone: "+14165551234" });
    expect(ca.body.phone).toMatchObject({ country: "CA", country_matches_ip: false });
    expect(signal(ca, "phone_country_mismatch")?.reason).toContain(
      "from Canada but the IP address is in the United States",
    );
  });

  it.each([
    [{ phone: "call me maybe" }, "phone"],
    [{ phone: "+12015550123", phone_country: "XX" }, "phone_country"],
    [{ phone: "+12015550123", phone_country: "USA" }, "phone_country"],
    [{ password_compromised: "yes" }, "password_compromised"],
  ])("a malformed value %o is 400 INVALID_REQUEST naming %s, with no unit", async (body, field) => {
    const ws = await app().seedWorkspace();
    const r = await assess(ws.apiKey, body);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("INVALID_REQUEST");
    expect(r.body.error.message).toContain(field);
    expect(await app().used(ws.workspaceId)).toBe(0);
  });

  it("scores password_compromised and gives the rules its facts, through both /v1 doors", async () => {
    const ws = await app().seedWorkspace();
    const rule = await app().request("POST", "/v1/rules", {
      key: ws.apiKey,
      body: {
        name: "Premium-rate phone with a known password",
        action: "block",
        expression: 'phone.type == "premium_rate" && password_compromised && phone.valid && !phone.country_matches_ip',
      },
    });
    expect(rule.status).toBe(200);
    const r = await assess(ws.apiKey, { phone: "+449098790123", password_compromised: true });
    expect(r.body.rules).toEqual([{ id: rule.body.id, name: rule.body.name, action: "block" }]);
    const s = signal(r, "password_compromised");
    expect(s?.weight).toBeGreaterThan(0);
    expect(s?.reason).toContain("common or breached passwords");
    // password_compromised false is no signal, and the rule does not match.
    const clean = await assess(ws.apiKey, { phone: "+449098790123", password_compromised: false });
    expect(codes(clean)).not.toContain("password_compromised");
    expect(clean.body.rules).toEqual([]);
    // The route door (the tRPC adapter behind /v1, as a request the plain door does not take) answers the same.
    const viaRoute = await handleRestRequest(
      new Request("http://127.0.0.1:3000/v1/assess", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${ws.apiKey}` },
        body: JSON.stringify({ event: "login", ip: CLEAN_IP, phone: "+449098790123", password_compromised: true }),
      }),
    );
    expect(viaRoute.status).toBe(200);
    expect(((await viaRoute.json()) as { rules: unknown[] }).rules).toHaveLength(1);
    // The facts as stored for backtests.
    const events = await app().db.event.findMany({
      where: { workspaceId: ws.workspaceId, type: "assessment" },
      orderBy: { createdAt: "asc" },
    });
    const facts = (events[0]!.data as { facts: Record<string, unknown> }).facts;
    expect(facts).toMatchObject({
      "phone.valid": true,
      "phone.type": "premium_rate",
      "phone.country": "GB",
      "phone.country_matches_ip": false,
      password_compromised: true,
    });
  });

  it("answers the same through the dashboard's tRPC door", async () => {
    const { owner } = await ownerAndMember(app().db, "phone-assess", ["suite_business"]);
    const r = await call(
      owner,
      "assessment.assess",
      { event: "signup", ip: CLEAN_IP, phone: "+4412", password_compromised: true },
      "mutation",
    );
    expect(r.status).toBe(200);
    expect(r.data.phone).toMatchObject({ valid: false });
    expect(r.data.signals.map((s: { code: string }) => s.code)).toEqual(
      expect.arrayContaining(["phone_invalid", "password_compromised"]),
    );
  });
});
