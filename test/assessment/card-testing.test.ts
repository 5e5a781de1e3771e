// Payments in /assess (issue 45, item 4): a card-testing burst (many cards from one device, most declined) is a
// signal with a reason and is caught by the card-testing rule pack once enabled; a normal shopper is not; a full card
// number is refused and reaches neither the store nor the log.
import { describe, expect, it } from "vitest";
import { handleRestRequest } from "../../server/api/rest/handler";
import { binInfo, holdsFullCardNumber } from "../../server/assessment/payment";
import { withLogLines } from "../log-lines";
import { CHROME_UA, CLEAN_IP, useAssessmentApp } from "./setup";

const { app } = useAssessmentApp();

interface Result {
  decision: string;
  signals: { code: string; weight: number; reason: string }[];
  rules: { id: string; name: string; action: string }[];
  payment: null | Record<string, unknown>;
}

const pay = (i: number, status: string, extra: Record<string, unknown> = {}) => ({
  bin: "400000",
  last4: String(1000 + i),
  fingerprint: `fp_${i}`,
  amount: 100,
  currency: "usd",
  status,
  ...(status === "declined" ? { decline_code: "card_declined" } : {}),
  ...extra,
});

async function assess(key: string, body: Record<string, unknown>): Promise<Result> {
  const res = await app().request("POST", "/v1/assess", {
    key,
    body: { ip: CLEAN_IP, user_agent: CHROME_UA, ...body },
  });
  expect(res.status, res.text).toBe(200);
  return res.body as Result;
}

/** 15 cards from one device in a few seconds, 12 declined (the 3 succeeding ones among them). */
async function burst(key: string, send = assess): Promise<Result[]> {
  const out: Result[] = [];
  for (let i = 0; i < 15; i++)
    out.push(
      await send(key, {
        event: "payment",
        device_id: "dev-tester",
        user_id: "guest",
        payment: pay(i, i % 5 === 4 ? "succeeded" : "declined"),
      }),
    );
  return out;
}

async function enablePack(key: string) {
  const res = await app().request("POST", "/v1/rule-packs/card_testing/enable", { key, body: {} });
  expect(res.status, res.text).toBe(200);
  return res.body as { rules: { id: string; name: string }[] };
}

async function lastFacts(workspaceId: string): Promise<Record<string, unknown>> {
  const ev = await app().db.event.findFirst({ where: { workspaceId }, orderBy: { createdAt: "desc" } });
  return (ev!.data as { facts: Record<string, unknown> }).facts;
}

describe("card testing", () => {
  it("a burst of 15 cards and 12 declines from one device is flagged, with its reason, and blocked by the rule pack", async () => {
    const ws = await app().seedWorkspace();
    await enablePack(ws.apiKey);
    const answers = await burst(ws.apiKey);
    const last = answers.at(-1)!;
    const signal = last.signals.find((s) => s.code === "card_testing");
    expect(signal?.reason).toMatch(/^15 different cards from this device in an hour, 12 declined: card testing/);
    expect(last.rules.map((r) => r.name)).toContain("Card-testing burst from one device");
    expect(last.decision).toBe("block");
    expect(await lastFacts(ws.workspaceId)).toMatchObject({
      "device.cards_1h": 15,
      "device.declines_1h": 12,
      "ip.cards_1h": 15,
      "ip.declines_1h": 12,
      "user.cards_30d": 15,
      "card.declines_24h": 0,
      "payment.small_amount": true,
    });
    // The burst was recognised as it happened: from the fifth card with three declines on.
    const firstFlagged = answers.findIndex((a) => a.signals.some((s) => s.code === "card_testing"));
    expect(firstFlagged).toBe(4);
    expect(last.payment).toMatchObject({ bin: "400000", last4: "1014", brand: "visa", issuer_country: null });
  });

  it("card counters key an IPv6 address by its /64 and an IPv4 address (IPv4-mapped too) by itself", async () => {
    const ws = await app().seedWorkspace();
    // A tester rotating through addresses of one /64, a new device each time: counted together.
    const v6 = ["2a01:4f8:1:2::1", "2a01:4f8:1:2:ffff::9", "2A01:04F8:0001:0002:0:0:0:abc"];
    for (const [i, ip] of v6.entries())
      await assess(ws.apiKey, { event: "payment", ip, device_id: `v6-${i}`, payment: pay(i, "declined") });
    expect(await lastFacts(ws.workspaceId)).toMatchObject({ "ip.cards_1h": 3, "ip.declines_1h": 3 });
    // The next /64 is another network.
    await assess(ws.apiKey, {
      event: "payment",
      ip: "2a01:4f8:1:3::1",
      device_id: "v6-x",
      payment: pay(9, "declined"),
    });
    expect(await lastFacts(ws.workspaceId)).toMatchObject({ "ip.cards_1h": 1, "ip.declines_1h": 1 });

    // IPv4 stays per address, and an IPv4-mapped IPv6 address is its IPv4 address.
    await assess(ws.apiKey, { event: "payment", ip: "91.64.1.1", device_id: "v4-a", payment: pay(20, "declined") });
    await assess(ws.apiKey, { event: "payment", ip: "91.64.1.2", device_id: "v4-b", payment: pay(21, "declined") });
    expect(await lastFacts(ws.workspaceId)).toMatchObject({ "ip.cards_1h": 1, "ip.declines_1h": 1 });
    await assess(ws.apiKey, {
      event: "payment",
      ip: "::ffff:91.64.1.2",
      device_id: "v4-c",
      payment: pay(22, "declined"),
    });
    expect(await lastFacts(ws.workspaceId)).toMatchObject({ "ip.cards_1h": 2, "ip.declines_1h": 2 });
  });

  it("a burst rotating inside one IPv6 /64 is card testing from that network, in words", async () => {
    const ws = await app().seedWorkspace();
    let last: Result | undefined;
    for (let i = 0; i < 30; i++)
      last = await assess(ws.apiKey, {
        event: "payment",
        ip: `2a01:4f8:9:7::${(i + 1).toString(16)}`,
        device_id: `rot-${i}`,
        payment: pay(i, i % 5 === 4 ? "succeeded" : "declined"),
      });
    const signal = last!.signals.find((s) => s.code === "card_testing");
    expect(signal?.reason).toMatch(
      /^30 different cards from the IPv6 network 2a01:4f8:9:7::\/64 in an hour, 24 declined/,
    );
    // Without the rule pack the burst does not block, so its reason advises no block: it names the pack that would.
    expect(last!.decision).not.toBe("block");
    expect(signal?.reason).not.toMatch(/\bblock the\b/i);
    // It names what the pack does with such a burst: a block from one device, a challenge from an address.
    expect(signal?.reason).toContain(
      "the card_testing rule pack, once enabled, blocks such a burst from one device and challenges one from an address",
    );
  });

  it("the same burst through the route's door gives the same facts", async () => {
    const ws = await app().seedWorkspace();
    const byRoute = async (key: string, body: Record<string, unknown>) => {
      const res = await handleRestRequest(
        new Request("http://127.0.0.1:3000/v1/assess", {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ ip: CLEAN_IP, user_agent: CHROME_UA, ...body }),
        }),
      );
      expect(res.status).toBe(200);
      return (await res.json()) as Result;
    };
    const last = (await burst(ws.apiKey, byRoute)).at(-1)!;
    expect(last.signals.find((s) => s.code === "card_testing")?.reason).toMatch(/^15 different cards .* 12 declined/);
    expect(await lastFacts(ws.workspaceId)).toMatchObject({ "device.cards_1h": 15, "device.declines_1h": 12 });
  });

  it("a normal shopper's three purchases are not flagged, with the pack enabled", async () => {
    const ws = await app().seedWorkspace();
    await enablePack(ws.apiKey);
    const card = { bin: "555555", last4: "4444", fingerprint: "fp_shopper", currency: "EUR", status: "succeeded" };
    for (const amount of [2599, 4999, 1250]) {
      const r = await assess(ws.apiKey, {
        event: "checkout",
        user_id: "shopper",
        device_id: "dev-shopper",
        email: "shopper@example.com",
        payment: { ...card, amount },
      });
      expect(r.signals.map((s) => s.code)).not.toContain("card_testing");
      expect(r.rules).toEqual([]);
      expect(r.decision).toBe("allow");
      expect(r.payment).toMatchObject({ brand: "mastercard", brand_name: "Mastercard" });
    }
    expect(await lastFacts(ws.workspaceId)).toMatchObject({
      "device.cards_1h": 1,
      "device.declines_1h": 0,
      "user.cards_30d": 1,
      "payment.small_amount": false,
    });
  });

  it("one card declined three times in a day is a signal of its own", async () => {
    const ws = await app().seedWorkspace();
    let r: Result | undefined;
    for (const device of ["d1", "d2", "d3"])
      r = await assess(ws.apiKey, { event: "payment", device_id: device, payment: pay(7, "declined") });
    expect(r!.signals.find((s) => s.code === "card_declines")?.reason).toBe(
      "This card (BIN 400000, ending 1007) was declined 3 times in 24 hours.",
    );
  });

  it("the rule pack is off until enabled, and backtests like any rule", async () => {
    const ws = await app().seedWorkspace();
    const before = (await burst(ws.apiKey)).at(-1)!;
    expect(before.rules).toEqual([]);
    const packs = await app().request("GET", "/v1/rule-packs", { key: ws.apiKey });
    expect(packs.status).toBe(200);
    const pack = packs.body.items.find((p: { id: string }) => p.id === "card_testing");
    expect(pack.enabled).toBe(false);
    const rule = pack.rules.find((r: { name: string }) => r.name === "Card-testing burst from one device");
    const bt = await app().request("POST", "/v1/rules/backtest", {
      key: ws.apiKey,
      body: { action: rule.action, expression: rule.expression },
    });
    expect(bt.status, bt.text).toBe(200);
    // From the fifth payment on, each assessment of the burst had the facts that match.
    expect(bt.body.matched).toBe(11);
    const enabled = await enablePack(ws.apiKey);
    expect(enabled.rules.length).toBe(pack.rules.length);
    const again = await app().request("POST", "/v1/rule-packs/card_testing/enable", { key: ws.apiKey, body: {} });
    expect(again.status).toBe(200);
    expect((await app().request("GET", "/v1/rules", { key: ws.apiKey })).body.items.length).toBe(pack.rules.length);
    const listed = await app().request("GET", "/v1/rule-packs", { key: ws.apiKey });
    expect(listed.body.items.find((p: { id: string }) => p.id === "card_testing").enabled).toBe(true);
  });
});

describe("a full card number", () => {
  const PAN = "4111111111111111";

  it.each([
    ["as the BIN", { bin: PAN }],
    ["as the fingerprint, spaced", { fingerprint: "4111 1111 1111 1111" }],
    ["as the fingerprint, with slashes", { fingerprint: "4111/1111/1111/1111" }],
    ["as the fingerprint, beside its expiry", { fingerprint: `${PAN}/1228` }],
    ["as the fingerprint, with two dashes between groups", { fingerprint: "4111--1111--1111--1111" }],
    ["as the decline code, with dots", { status: "declined", decline_code: "4111.1111.1111.1111" }],
    ["as the decline code, with underscores", { status: "declined", decline_code: "4111_1111_1111_1111" }],
    ["under a key of its own", { number: PAN }],
    ["as the amount", { amount: Number(PAN) }],
    // A 19-digit number is rounded when the JSON is read: it cannot be checked, so it is refused as a card number.
    ["as the amount, too long to read exactly", { amount: 4_000_000_000_000_000_006 }],
  ])("%s is 400 with the BIN and last four asked for, and is neither stored nor logged", async (_label, field) => {
    const ws = await app().seedWorkspace();
    const lines = await withLogLines(async (lines) => {
      for (const door of ["plain", "route"] as const) {
        const body = JSON.stringify({
          event: "checkout",
          ip: CLEAN_IP,
          user_id: "u",
          payment: { ...pay(1, "succeeded"), ...field },
        });
        const headers = { authorization: `Bearer ${ws.apiKey}`, "content-type": "application/json" };
        const res =
          door === "plain"
            ? await app().request("POST", "/v1/assess", { key: ws.apiKey, body: JSON.parse(body) })
            : await handleRestRequest(
                new Request("http://127.0.0.1:3000/v1/assess", { method: "POST", headers, body }),
              );
        const text = "text" in res && typeof res.text === "string" ? res.text : await (res as Response).text();
        expect(res.status).toBe(400);
        const err = JSON.parse(text).error;
        expect(err.code).toBe("INVALID_INPUT");
        expect(err.message).toMatch(/send only the card's BIN \(its first 6 to 8 digits\) as `bin` and its last four/);
        expect(text).not.toMatch(/4111.?1111.?1111.?1111/);
      }
      return lines;
    }, "trace");
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join("")).not.toMatch(/4111.?1111.?1111.?1111/);
    expect(await app().used(ws.workspaceId)).toBe(0);
    // Nowhere in the workspace's rows: events, history, ledger, counters.
    const dump = await app().db.$queryRawUnsafe<{ t: string }[]>(
      `SELECT coalesce((SELECT string_agg(e::text, '') FROM "Event" e WHERE e."workspaceId" = $1), '') ||
              coalesce((SELECT string_agg(h::text, '') FROM "LookupHistory" h WHERE h."workspaceId" = $1), '') ||
              coalesce((SELECT string_agg(p::text, '') FROM "VelocityPair" p WHERE p."workspaceId" = $1), '') AS t`,
      ws.workspaceId,
    );
    expect(dump[0]!.t).not.toMatch(/4111.?1111.?1111.?1111/);
  });

  it("is read through up to three separators between digits, beside an expiry or a CVC, and never inside a token or a longer run", () => {
    for (const v of [
      "4111 1111 1111 1111",
      "4111-1111-1111-1111",
      "4111.1111.1111.1111",
      "4111_1111_1111_1111",
      "4111/1111/1111/1111",
      "4111  1111  1111  1111",
      "4111 - 1111 - 1111 - 1111",
      "card 4111*1111*1111*1111 declined",
      // The number with its expiry or CVC: some of the run's groups are the card number.
      "4111111111111111/1228",
      "4111111111111111-1228",
      "12/28 4111 1111 1111 1111",
      "4111 1111 1111 1111 123",
      "tok_4111111111111111",
      4111111111111111,
      2 ** 60,
      -(2 ** 60),
    ])
      expect(holdsFullCardNumber(v), String(v)).toBe(true);
    // A letter beside a run makes it part of a token (a hex digest's digits between letters passed Luhn one time in
    // 230); four separators end the run; a run longer than 19 digits with no separator is not a card number; a number
    // failing Luhn is not one, nor groups of no card brand's prefix.
    for (const v of [
      "4111    1111    1111    1111",
      "card_1Nv0Xk2eZvKYlo2C0Jv4Z1f",
      "tok_4111a1111b1111c1111",
      "tok4111111111111111",
      "5d8f6cce532a7aeb57196be62344095936793400b3aeb3580d248b17d5518a86",
      "41111111111111111111111",
      "4111111111111112",
      "fp_9c2e41b7d0a3",
      "2026-11-28",
      "2026-11-28-0000000000000",
      1e25,
      Number.MAX_SAFE_INTEGER,
      12_345,
    ])
      expect(holdsFullCardNumber(v), String(v)).toBe(false);
  });

  it("a payment on a login is 400: payments belong to checkout and payment events", async () => {
    const ws = await app().seedWorkspace();
    const res = await app().request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "login", ip: CLEAN_IP, payment: pay(1, "succeeded") },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe("payment applies to checkout and payment events only");
  });

  it("a decline code beside a succeeded status is 400 and stores nothing", async () => {
    const ws = await app().seedWorkspace();
    const res = await app().request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "checkout", ip: CLEAN_IP, payment: pay(1, "succeeded", { decline_code: "card_declined" }) },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.code).toBe("INVALID_REQUEST");
    expect(res.body.error.message).toContain(
      "payment.decline_code is for a failed or declined attempt; a succeeded one has none",
    );
    expect(await app().db.event.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
    // The same code with a decline is taken.
    await assess(ws.apiKey, { event: "checkout", payment: pay(2, "declined") });
  });

  it("a BIN that is not 6 to 8 digits is 400 naming the field", async () => {
    const ws = await app().seedWorkspace();
    const res = await app().request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "checkout", ip: CLEAN_IP, payment: pay(1, "succeeded", { bin: "4000" }) },
    });
    expect(res.status).toBe(400);
    // The field is named once: the message begins with it, so it is not prefixed again.
    expect(res.body.error.message).toBe("payment.bin must be the card's first 6 to 8 digits");
  });
});

describe("the BIN's brand", () => {
  it("is the same on every read of a BIN, whatever a caller did with an earlier answer", () => {
    const first = binInfo("510510");
    expect(first).toEqual({ brand: "mastercard", brand_name: "Mastercard" });
    first.brand = "changed by a caller";
    expect(binInfo("510510")).toEqual({ brand: "mastercard", brand_name: "Mastercard" });
    expect(binInfo("411111")).toEqual({ brand: "visa", brand_name: "Visa" });
    // A prefix that several brands' ranges share names none, every time.
    expect(binInfo("6")).toEqual({ brand: null, brand_name: null });
    expect(binInfo("6")).toEqual({ brand: null, brand_name: null });
  });
});
