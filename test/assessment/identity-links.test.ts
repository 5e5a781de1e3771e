// Linked accounts in /assess (issue 45, item 2): accounts of one workspace sharing a device, a canonical mailbox, a
// phone number or a card in 30 days are linked, with facts for rules and a reason that names them; another
// workspace's accounts never are; both doors give the same.
import { describe, expect, it } from "vitest";
import { handleRestRequest } from "../../server/api/rest/handler";
import { CHROME_UA, CLEAN_IP, useAssessmentApp } from "./setup";

const { app } = useAssessmentApp();
/** A Deutsche Telekom (residential, DE) address. */
const DE_IP = "91.64.1.1";

interface Result {
  signals: { code: string; weight: number; reason: string }[];
  linked_accounts: null | { accounts_30d: number; by: { kind: string; accounts_30d: number; names: string[] }[] };
  phone?: Record<string, unknown> | null;
}

async function assess(key: string, body: Record<string, unknown>): Promise<Result> {
  const res = await app().request("POST", "/v1/assess", {
    key,
    body: { ip: CLEAN_IP, user_agent: CHROME_UA, ...body },
  });
  expect(res.status, res.text).toBe(200);
  return res.body as Result;
}

/** The same request through the route's handler (the dashboard's and every other /v1 request's door). */
async function assessByRoute(key: string, body: Record<string, unknown>): Promise<Result> {
  const res = await handleRestRequest(
    new Request("http://127.0.0.1:3000/v1/assess", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ ip: CLEAN_IP, user_agent: CHROME_UA, ...body }),
    }),
  );
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return JSON.parse(text) as Result;
}

async function facts(workspaceId: string, userId: string): Promise<Record<string, unknown>> {
  const ev = await app().db.event.findFirst({
    where: { workspaceId, subject: `user:${userId}` },
    orderBy: { createdAt: "desc" },
  });
  return (ev!.data as { facts: Record<string, unknown> }).facts;
}

describe("linked accounts", () => {
  it.each(["plain", "route"] as const)(
    "three accounts on one device are linked, with a reason naming them (%s door)",
    async (door) => {
      const ws = await app().seedWorkspace();
      const send = door === "plain" ? assess : assessByRoute;
      const first = await send(ws.apiKey, { event: "signup", user_id: "alice", device_id: "dev-shared" });
      expect(first.linked_accounts).toEqual({ accounts_30d: 0, by: [] });
      expect(first.signals.map((s) => s.code)).not.toContain("linked_accounts");
      await send(ws.apiKey, { event: "signup", user_id: "bob", device_id: "dev-shared" });
      await send(ws.apiKey, { event: "signup", user_id: "carol", device_id: "dev-other" });
      const third = await send(ws.apiKey, { event: "signup", user_id: "dave", device_id: "dev-shared" });

      expect(third.linked_accounts).toEqual({
        accounts_30d: 2,
        by: [{ kind: "device", accounts_30d: 2, names: ["bob", "alice"] }],
      });
      const signal = third.signals.find((s) => s.code === "linked_accounts");
      expect(signal?.weight).toBe(10);
      expect(signal?.reason).toMatch(/^2 other accounts used this device this month: bob, alice\. /);
      expect(await facts(ws.workspaceId, "dave")).toMatchObject({
        "device.accounts_30d": 3,
        "user.linked_accounts_30d": 2,
      });
      // carol used another device: linked to nobody.
      expect((await facts(ws.workspaceId, "carol"))["user.linked_accounts_30d"]).toBe(0);
    },
  );

  it("links by canonical mailbox, phone number and card, each named with what links them", async () => {
    const ws = await app().seedWorkspace();
    const card = {
      bin: "424242",
      last4: "4242",
      fingerprint: "fp_ring",
      amount: 1500,
      currency: "EUR",
      status: "succeeded",
    };
    await assess(ws.apiKey, { event: "signup", user_id: "u1", email: "a.l.i.c.e+1@gmail.com" });
    await assess(ws.apiKey, {
      event: "signup",
      user_id: "u2",
      email: "alice+2@googlemail.com",
      phone: "+44 7400 123456",
    });
    await assess(ws.apiKey, { event: "checkout", user_id: "u3", phone: "+447400123456", payment: card });
    const last = await assess(ws.apiKey, {
      event: "checkout",
      user_id: "u4",
      email: "ALICE@gmail.com",
      phone: "+44 (7400) 123-456",
      payment: card,
    });
    expect(last.linked_accounts).toEqual({
      accounts_30d: 3,
      by: [
        { kind: "email", accounts_30d: 2, names: ["u2", "u1"] },
        { kind: "phone", accounts_30d: 2, names: ["u3", "u2"] },
        { kind: "card", accounts_30d: 1, names: ["u3"] },
      ],
    });
    const signal = last.signals.find((s) => s.code === "linked_accounts")!;
    expect(signal.weight).toBe(25);
    expect(signal.reason).toContain("2 other accounts used this mailbox this month: u2, u1");
    expect(signal.reason).toContain("2 other accounts gave this phone number this month: u3, u2");
    expect(signal.reason).toContain("1 other account used this card this month: u3");
    expect(await facts(ws.workspaceId, "u4")).toMatchObject({
      "email.accounts_30d": 3,
      "phone.accounts_30d": 3,
      "user.linked_accounts_30d": 3,
    });
  });

  it("cards link accounts by fingerprint only: two customers whose cards share a BIN and last four are strangers", async () => {
    const ws = await app().seedWorkspace();
    // One bank's BIN with a common last four: two different cards, neither with a fingerprint. Their accounts are
    // not linked, yet each card still counts as a card of its own device.
    const bankCard = { bin: "414720", last4: "1234", amount: 2500, currency: "USD", status: "succeeded" };
    await assess(ws.apiKey, { event: "checkout", user_id: "shopper1", device_id: "d1", payment: bankCard });
    const second = await assess(ws.apiKey, {
      event: "checkout",
      user_id: "shopper2",
      device_id: "d2",
      payment: bankCard,
    });
    expect(second.linked_accounts).toEqual({ accounts_30d: 0, by: [] });
    expect(second.signals.map((s) => s.code)).not.toContain("linked_accounts");
    expect(await facts(ws.workspaceId, "shopper2")).toMatchObject({
      "user.linked_accounts_30d": 0,
      "device.cards_1h": 1,
    });
    const profile = await app().request("GET", "/v1/users/shopper1", { key: ws.apiKey });
    expect(profile.body.linked_accounts).toEqual([]);

    // The processor's fingerprint names one card: the same fingerprint links its accounts, whether the earlier
    // attempt was paid or declined (the reason says the other account used the card, not that it paid with it).
    const fingerprinted = { ...bankCard, fingerprint: "fp_one_card" };
    await assess(ws.apiKey, {
      event: "checkout",
      user_id: "shopper3",
      device_id: "d3",
      payment: { ...fingerprinted, status: "declined", decline_code: "stolen_card" },
    });
    const fourth = await assess(ws.apiKey, {
      event: "checkout",
      user_id: "shopper4",
      device_id: "d4",
      payment: fingerprinted,
    });
    expect(fourth.linked_accounts).toEqual({
      accounts_30d: 1,
      by: [{ kind: "card", accounts_30d: 1, names: ["shopper3"] }],
    });
    expect(fourth.signals.find((s) => s.code === "linked_accounts")?.reason).toMatch(
      /^1 other account used this card this month: shopper3\. /,
    );
  });

  it("a national number read in phone_country links to its international spelling", async () => {
    const ws = await app().seedWorkspace();
    await assess(ws.apiKey, { event: "signup", user_id: "uk1", phone: "+447400123456" });
    const r = await assess(ws.apiKey, { event: "signup", user_id: "uk2", phone: "07400 123456", phone_country: "GB" });
    expect(r.linked_accounts).toEqual({ accounts_30d: 1, by: [{ kind: "phone", accounts_30d: 1, names: ["uk1"] }] });
    expect(await facts(ws.workspaceId, "uk2")).toMatchObject({ "phone.accounts_30d": 2 });
  });

  it("a national number without phone_country, read in the IP address's country, links to its international spelling", async () => {
    const ws = await app().seedWorkspace();
    await assess(ws.apiKey, { event: "signup", user_id: "de1", phone: "+49301234567", ip: DE_IP });
    const r = await assess(ws.apiKey, { event: "signup", user_id: "de2", phone: "030 1234567", ip: DE_IP });
    expect(r.phone).toMatchObject({ valid: true, e164: "+49301234567", country: "DE" });
    expect(r.linked_accounts).toEqual({ accounts_30d: 1, by: [{ kind: "phone", accounts_30d: 1, names: ["de1"] }] });
    expect(await facts(ws.workspaceId, "de2")).toMatchObject({ "phone.accounts_30d": 2 });
  });

  it("accounts on one browser identified by /device.js (device.visitor_id, no device_id) are linked too", async () => {
    const ws = await app().seedWorkspace();
    const device = { visitor_id: "visXYZ12345" };
    for (const u of ["va", "vb"]) await assess(ws.apiKey, { event: "signup", user_id: u, device });
    const r = await assess(ws.apiKey, { event: "signup", user_id: "vc", device });
    // The device evidence names the browser's many accounts; the links name them too, by the same device.
    expect(r.signals.map((s) => s.code)).toEqual(expect.arrayContaining(["device_many_accounts", "linked_accounts"]));
    expect(r.linked_accounts).toEqual({
      accounts_30d: 2,
      by: [{ kind: "device", accounts_30d: 2, names: ["vb", "va"] }],
    });
    const profile = await app().request("GET", "/v1/users/vc", { key: ws.apiKey });
    const deviceId = (r as unknown as { device: { device_id: string } }).device.device_id;
    expect(profile.body.identifiers).toContainEqual(expect.objectContaining({ kind: "device", value: deviceId }));
  });

  it("a number the numbering plans do not read links no one: strangers who typed the same placeholder", async () => {
    const ws = await app().seedWorkspace();
    for (const phone of ["0000000000", "+1 555 555 5555"]) {
      for (const u of ["a", "b"]) await assess(ws.apiKey, { event: "signup", user_id: `${phone}-${u}`, phone });
      const r = await assess(ws.apiKey, { event: "signup", user_id: `${phone}-c`, phone });
      expect(r.phone).toMatchObject({ valid: false });
      expect(r.signals.map((s) => s.code)).toContain("phone_invalid");
      expect(r.linked_accounts).toEqual({ accounts_30d: 0, by: [] });
      // No phone key, so no count of accounts that gave it (the fact is left out, as without a phone).
      expect(await facts(ws.workspaceId, `${phone}-c`)).not.toHaveProperty("phone.accounts_30d");
    }
  });

  it("a failed login links nothing (a stuffing device would tie every account it tried together)", async () => {
    const ws = await app().seedWorkspace();
    await assess(ws.apiKey, { event: "login", user_id: "victim1", device_id: "stuffer", status: "failed" });
    await assess(ws.apiKey, { event: "login", user_id: "victim2", device_id: "stuffer", status: "failed" });
    const owner = await assess(ws.apiKey, { event: "login", user_id: "owner", device_id: "stuffer" });
    expect(owner.linked_accounts?.accounts_30d).toBe(0);
  });

  it("another workspace's accounts are never linked", async () => {
    const a = await app().seedWorkspace();
    const b = await app().seedWorkspace();
    await assess(a.apiKey, { event: "signup", user_id: "mallory", device_id: "dev-x", email: "m@gmail.com" });
    await assess(a.apiKey, { event: "signup", user_id: "trent", device_id: "dev-x", email: "m@gmail.com" });
    const other = await assess(b.apiKey, {
      event: "signup",
      user_id: "peggy",
      device_id: "dev-x",
      email: "m@gmail.com",
    });
    expect(other.linked_accounts).toEqual({ accounts_30d: 0, by: [] });
    expect(await facts(b.workspaceId, "peggy")).toMatchObject({
      "device.accounts_30d": 1,
      "email.accounts_30d": 1,
      "user.linked_accounts_30d": 0,
    });
  });

  it("links only within 30 days", async () => {
    const ws = await app().seedWorkspace();
    await assess(ws.apiKey, { event: "signup", user_id: "old", device_id: "dev-old" });
    await app().db.$executeRawUnsafe(
      `UPDATE "VelocityPair" SET "lastAt" = "lastAt" - interval '31 days' WHERE "workspaceId" = $1`,
      ws.workspaceId,
    );
    const now = await assess(ws.apiKey, { event: "signup", user_id: "new", device_id: "dev-old" });
    expect(now.linked_accounts?.accounts_30d).toBe(0);
  });
});

describe("GET /v1/users/{user_id}", () => {
  it("opens an account assessed without a user_id by its email address, any spelling of its mailbox", async () => {
    const ws = await app().seedWorkspace();
    await assess(ws.apiKey, { event: "signup", email: "Carol.K@Gmail.com", device_id: "dev-k" });
    await assess(ws.apiKey, { event: "signup", user_id: "dan", email: "dan@example.com", device_id: "dev-k" });
    const dan = await app().request("GET", "/v1/users/dan", { key: ws.apiKey });
    expect(dan.body).toMatchObject({ user_id: "dan", key: "user_id" });
    const linked = dan.body.linked_accounts as { account: string; key: string }[];
    expect(linked.map((l) => [l.account, l.key])).toEqual([["carolk@gmail.com", "email"]]);
    // The linked account the API names opens, as does any spelling of its mailbox; other addresses are 404.
    for (const id of ["carolk@gmail.com", "Carol.K@Gmail.com", "c.a.r.o.l.k+x@googlemail.com"]) {
      const r = await app().request("GET", `/v1/users/${encodeURIComponent(id)}`, { key: ws.apiKey });
      expect(r.status, id).toBe(200);
      expect(r.body, id).toMatchObject({ user_id: id, key: "email", baseline: { assessments_30d: 1 } });
      expect(
        r.body.linked_accounts.map((l: { account: string }) => l.account),
        id,
      ).toEqual(["dan"]);
    }
    const none = await app().request("GET", `/v1/users/${encodeURIComponent("dan@example.com")}`, { key: ws.apiKey });
    expect(none.status).toBe(404);
  });

  it("a user_id that is an email address and the email-keyed account of that mailbox are two accounts, each opened by `key`", async () => {
    const ws = await app().seedWorkspace();
    // One account sent its address as its user_id; another was assessed without a user_id, keyed by its email.
    await assess(ws.apiKey, { event: "signup", user_id: "pat@example.com", device_id: "dev-user" });
    await assess(ws.apiKey, { event: "login", user_id: "pat@example.com", device_id: "dev-user" });
    await assess(ws.apiKey, { event: "signup", email: "Pat@Example.com", device_id: "dev-mail" });
    const id = encodeURIComponent("pat@example.com");
    const open = (query = "") => app().request("GET", `/v1/users/${id}${query}`, { key: ws.apiKey });

    // Without `key`, the user_id is read first (as /assess keys it), and the answer says the other account exists.
    const byDefault = await open();
    expect(byDefault.status, byDefault.text).toBe(200);
    expect(byDefault.body).toMatchObject({ key: "user_id", other_key: "email", baseline: { assessments_30d: 2 } });
    const byUser = await open("?key=user_id");
    expect(byUser.body).toMatchObject({ key: "user_id", other_key: "email", baseline: { assessments_30d: 2 } });
    const byEmail = await open("?key=email");
    expect(byEmail.status, byEmail.text).toBe(200);
    expect(byEmail.body).toMatchObject({ key: "email", other_key: "user_id", baseline: { assessments_30d: 1 } });
    expect(byEmail.body.assessments.items.map((a: { device_id: string }) => a.device_id)).toEqual(["dev-mail"]);

    // An account of one kind only: other_key is null, and asking for the other kind is 404.
    await assess(ws.apiKey, { event: "signup", email: "quinn@example.com" });
    const quinn = encodeURIComponent("quinn@example.com");
    const only = await app().request("GET", `/v1/users/${quinn}`, { key: ws.apiKey });
    expect(only.body).toMatchObject({ key: "email", other_key: null });
    const asUser = await app().request("GET", `/v1/users/${quinn}?key=user_id`, { key: ws.apiKey });
    expect(asUser.status).toBe(404);
    const plain = await app().request("GET", "/v1/users/pat-no-such?key=email", { key: ws.apiKey });
    expect(plain.status).toBe(404);
    const bad = await app().request("GET", `/v1/users/${id}?key=phone`, { key: ws.apiKey });
    expect(bad.status).toBe(400);
  });

  it("shows the account's baseline, identifiers, linked accounts with what links them, and its assessments by cursor", async () => {
    const ws = await app().seedWorkspace();
    const other = await app().seedWorkspace();
    const card = {
      bin: "411111",
      last4: "1111",
      amount: 4999,
      currency: "EUR",
      status: "declined",
      decline_code: "do_not_honor",
    };
    await assess(ws.apiKey, { event: "signup", user_id: "ann", device_id: "dev-a", email: "ann.smith+shop@gmail.com" });
    await assess(ws.apiKey, { event: "login", user_id: "ann", device_id: "dev-a" });
    await assess(ws.apiKey, { event: "checkout", user_id: "ann", device_id: "dev-a", payment: card });
    await assess(ws.apiKey, { event: "signup", user_id: "ben", device_id: "dev-a" });
    await assess(ws.apiKey, { event: "signup", user_id: "cat", email: "annsmith@googlemail.com" });
    await assess(ws.apiKey, { event: "checkout", user_id: "cat", device_id: "dev-c", payment: card });
    await assess(ws.apiKey, { event: "signup", user_id: "dan", device_id: "dev-d" });
    // Another workspace's account on the same device and mailbox is no link of ann's.
    await assess(other.apiKey, { event: "signup", user_id: "eve", device_id: "dev-a", email: "annsmith@gmail.com" });

    const res = await app().request("GET", "/v1/users/ann?limit=2", { key: ws.apiKey });
    expect(res.status, res.text).toBe(200);
    expect(res.body.user_id).toBe("ann");
    expect(res.body.baseline).toMatchObject({
      assessments_30d: 3,
      failed_30d: 0,
      devices_30d: 1,
      countries_30d: ["US"],
    });
    // The card has no fingerprint: it is among the payments, not a link (see "cards link accounts by fingerprint").
    expect(res.body.identifiers.map((i: { kind: string; value: string }) => `${i.kind}:${i.value}`).sort()).toEqual([
      "device:dev-a",
      "email:annsmith@gmail.com",
    ]);
    const links = Object.fromEntries(
      res.body.linked_accounts.map((l: { account: string; links: { kind: string; value: string }[] }) => [
        l.account,
        l.links.map((k) => `${k.kind}:${k.value}`).sort(),
      ]),
    );
    expect(links).toEqual({ ben: ["device:dev-a"], cat: ["email:annsmith@gmail.com"] });
    const page1 = res.body.assessments;
    expect(page1.items.map((i: { event: string }) => i.event)).toEqual(["checkout", "login"]);
    expect(page1.items[0].payment).toMatchObject({
      bin: "411111",
      last4: "1111",
      brand_name: "Visa",
      status: "declined",
    });
    const page2 = await app().request("GET", `/v1/users/ann?limit=2&cursor=${page1.next_cursor}`, { key: ws.apiKey });
    expect(page2.body.assessments.items.map((i: { event: string }) => i.event)).toEqual(["signup"]);
    expect(page2.body.assessments.next_cursor).toBeNull();
    expect(await app().used(ws.workspaceId)).toBe(7);

    // The other workspace: ann is not found, and eve is linked to nobody.
    const hidden = await app().request("GET", "/v1/users/ann", { key: other.apiKey });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe("NOT_FOUND");
    // ... with a cursor too (ann's own, or any), and an account never assessed anywhere the same.
    for (const path of [
      `/v1/users/ann?cursor=${page1.next_cursor}`,
      "/v1/users/ann?cursor=x",
      "/v1/users/nobody?cursor=x",
    ])
      expect((await app().request("GET", path, { key: other.apiKey })).status, path).toBe(404);
    // A cursor that is none of the account's assessments is 400, here and for another workspace's assessment id.
    for (const cursor of ["nonexistent", page1.next_cursor]) {
      const bad = await app().request("GET", `/v1/users/eve?cursor=${cursor}`, { key: other.apiKey });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(/^cursor: unknown cursor/);
    }
    const eve = await app().request("GET", "/v1/users/eve", { key: other.apiKey });
    expect(eve.body.linked_accounts).toEqual([]);
  });

  it("a review case shows the account's linked accounts and payment history", async () => {
    const ws = await app().seedWorkspace();
    await app().request("POST", "/v1/rules", {
      key: ws.apiKey,
      body: { name: "Review linked", action: "review", expression: "user.linked_accounts_30d >= 1" },
    });
    await assess(ws.apiKey, { event: "signup", user_id: "p1", device_id: "dev-ring" });
    await assess(ws.apiKey, { event: "signup", user_id: "p2", device_id: "dev-ring" });
    const cases = await app().request("GET", "/v1/cases", { key: ws.apiKey });
    expect(cases.body.items).toHaveLength(1);
    const detail = await app().request("GET", `/v1/cases/${cases.body.items[0].id}`, { key: ws.apiKey });
    expect(detail.status).toBe(200);
    expect(detail.body.linked_accounts).toMatchObject([
      { account: "p1", key: "user_id", links: [{ kind: "device", value: "dev-ring" }] },
    ]);
  });
});
