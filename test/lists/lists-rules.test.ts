// in_list() in rules: an unknown list is 400 when the rule is saved, a used list cannot be deleted (409), /assess
// matches exact values and CIDR items (IPv4 and IPv6), an expired item stops matching at once, and the backtest
// answers from the lists. Also the dashboard's tRPC door with a session.
import { describe, expect, it } from "vitest";
import { CHROME_UA, CLEAN_IP, keyedCalls, useAssessmentApp } from "../assessment/setup";
import { call, ownerAndMember } from "../dashboard/call";

const { app } = useAssessmentApp();
const { req } = keyedCalls(app);
const assess = (key: string, body: Record<string, unknown>) =>
  req(key, "POST", "/v1/assess", { event: "login", user_agent: CHROME_UA, ...body });

describe("in_list in rules", () => {
  it("refuses an unknown list, blocks deleting a used list, matches CIDR items in /assess", async () => {
    const ws = await app().seedWorkspace();
    const unknown = await req(ws.apiKey, "POST", "/v1/rules", {
      name: "Office",
      action: "allow",
      expression: 'in_list("office_networks", ip.address)',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('"office_networks"');
    const notLiteral = await req(ws.apiKey, "POST", "/v1/rules", {
      name: "x",
      action: "allow",
      expression: "in_list(email.address, email.address)",
    });
    expect(notLiteral.status).toBe(400);

    const list = (await req(ws.apiKey, "POST", "/v1/lists", { name: "office_networks", kind: "ip" })).body;
    await req(ws.apiKey, "POST", `/v1/lists/${list.id}/items`, {
      items: [{ value: "73.162.0.0/16" }, { value: "2001:db8:100::/40" }],
    });
    const rule = await req(ws.apiKey, "POST", "/v1/rules", {
      name: "Office",
      action: "review",
      expression: 'in_list("office_networks", ip.address)',
    });
    expect(rule.status).toBe(200);
    expect((await req(ws.apiKey, "GET", `/v1/lists/${list.id}`)).body.used_by).toEqual([
      { id: rule.body.id, name: "Office" },
    ]);

    expect((await assess(ws.apiKey, { ip: CLEAN_IP })).body.rules).toEqual([
      { id: rule.body.id, name: "Office", action: "review" },
    ]);
    expect((await assess(ws.apiKey, { ip: "73.163.1.1" })).body.rules).toEqual([]);
    expect((await assess(ws.apiKey, { ip: "2001:db8:1ff:ffff::1" })).body.decision).toBe("review");
    expect((await assess(ws.apiKey, { ip: "2001:db8:200::1" })).body.rules).toEqual([]);

    const blocked = await req(ws.apiKey, "DELETE", `/v1/lists/${list.id}`);
    expect(blocked.status).toBe(409);
    expect(blocked.body.error.code).toBe("CONFLICT");
    expect(blocked.body.error.message).toContain('"Office"');
    expect((await req(ws.apiKey, "PATCH", `/v1/lists/${list.id}`, { name: "renamed" })).status).toBe(409);
    await req(ws.apiKey, "DELETE", `/v1/rules/${rule.body.id}`);
    expect((await req(ws.apiKey, "DELETE", `/v1/lists/${list.id}`)).status).toBe(200);
  });

  it("matches an item until it expires, and a newly added item at once", async () => {
    const ws = await app().seedWorkspace();
    const list = (await req(ws.apiKey, "POST", "/v1/lists", { name: "blocked_emails", kind: "email" })).body;
    // An expiry already past is refused (the item would never match), and the batch writes nothing.
    const past = await req(ws.apiKey, "POST", `/v1/lists/${list.id}/items`, {
      items: [
        { value: "Soon@Example.com", expires_at: new Date(Date.now() + 2500).toISOString() },
        { value: "past@example.com", expires_at: new Date(Date.now() - 1000).toISOString() },
      ],
    });
    expect(past.status).toBe(400);
    expect(past.body.error.message).toContain("items.1.expires_at: ");
    await req(ws.apiKey, "POST", `/v1/lists/${list.id}/items`, {
      items: [
        { value: "Soon@Example.com", expires_at: new Date(Date.now() + 2900).toISOString() },
        { value: "past@example.com", expires_at: new Date(Date.now() + 300).toISOString() },
      ],
    });
    await new Promise((r) => setTimeout(r, 400));
    await req(ws.apiKey, "POST", "/v1/rules", {
      name: "Blocked emails",
      action: "block",
      expression: 'in_list("blocked_emails", email.address)',
    });
    expect((await assess(ws.apiKey, { ip: CLEAN_IP, email: "soon@example.com" })).body.decision).toBe("block");
    expect((await assess(ws.apiKey, { ip: CLEAN_IP, email: "past@example.com" })).body.decision).not.toBe("block");
    await req(ws.apiKey, "POST", `/v1/lists/${list.id}/items`, { items: [{ value: "new@example.com" }] });
    expect((await assess(ws.apiKey, { ip: CLEAN_IP, email: "new@example.com" })).body.decision).toBe("block");
    await new Promise((r) => setTimeout(r, 2600));
    expect((await assess(ws.apiKey, { ip: CLEAN_IP, email: "soon@example.com" })).body.decision).not.toBe("block");
    const items = (await req(ws.apiKey, "GET", `/v1/lists/${list.id}/items`)).body.items;
    expect(items.find((i: { value: string }) => i.value === "soon@example.com").expired).toBe(true);
  });

  // A country list's items are judged as /assess judges billing_country (isCountryCode): XX, EU or UK, which /assess
  // refuses and so could never match, are refused naming the item; items saved before that still read and match.
  it("refuses a country item that names no country, naming it, and keeps reading and matching older items", async () => {
    const ws = await app().seedWorkspace();
    const list = (await req(ws.apiKey, "POST", "/v1/lists", { name: "billing", kind: "country" })).body;
    const bad = await req(ws.apiKey, "POST", `/v1/lists/${list.id}/items`, {
      items: [{ value: "de" }, { value: "XX" }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toEqual({
      code: "INVALID_REQUEST",
      message: 'items.1 ("XX") names no country; nothing was added.',
    });
    const csv = await req(ws.apiKey, "POST", `/v1/lists/${list.id}/items`, { csv: "DE\nEU\n" });
    expect(csv.status).toBe(400);
    expect(csv.body.error.message).toBe('CSV line 2 ("EU") names no country; nothing was added.');
    const su = await req(ws.apiKey, "POST", `/v1/lists/${list.id}/items`, { items: [{ value: "su" }] });
    expect(su.status).toBe(400);
    expect(su.body.error.message).toContain('items.0 ("su") names no country');
    expect((await req(ws.apiKey, "GET", `/v1/lists/${list.id}`)).body.item_count).toBe(0);
    // UK, which /assess reads as GB, is kept as GB, so that it matches what /assess reads.
    const uk = await req(ws.apiKey, "POST", `/v1/lists/${list.id}/items`, { items: [{ value: "uk" }] });
    expect(uk.status).toBe(200);
    const kept = (await req(ws.apiKey, "GET", `/v1/lists/${list.id}/items`)).body.items;
    expect(kept.map((i: { value: string }) => i.value)).toEqual(["GB"]);
    await req(ws.apiKey, "DELETE", `/v1/lists/${list.id}/items/${kept[0].id}`);

    // Saved before the check: "UK" stays readable and removable, and "DE" beside it matches.
    await app().db.namedListItem.create({ data: { id: "li_legacy_uk", listId: list.id, value: "UK" } });
    expect((await req(ws.apiKey, "POST", `/v1/lists/${list.id}/items`, { items: [{ value: "de" }] })).status).toBe(200);
    const items = (await req(ws.apiKey, "GET", `/v1/lists/${list.id}/items`)).body.items;
    expect(items.map((i: { value: string }) => i.value)).toEqual(["DE", "UK"]);
    await req(ws.apiKey, "POST", "/v1/rules", {
      name: "Billing",
      action: "review",
      expression: 'in_list("billing", billing_country)',
    });
    const hit = await assess(ws.apiKey, { ip: CLEAN_IP, event: "checkout", billing_country: "de" });
    expect(hit.status).toBe(200);
    expect(hit.body.rules.map((r: { name: string }) => r.name)).toEqual(["Billing"]);
    const miss = await assess(ws.apiKey, { ip: CLEAN_IP, event: "checkout", billing_country: "US" });
    expect(miss.body.rules).toEqual([]);
    expect((await req(ws.apiKey, "DELETE", `/v1/lists/${list.id}/items/li_legacy_uk`)).status).toBe(200);
  });

  it("backtests an in_list rule on stored assessments", async () => {
    const ws = await app().seedWorkspace();
    for (const email of ["a@bad.test", "b@bad.test", "c@good.test"])
      await assess(ws.apiKey, { ip: CLEAN_IP, email, event: "signup" });
    const list = (await req(ws.apiKey, "POST", "/v1/lists", { name: "bad_domains", kind: "email_domain" })).body;
    await req(ws.apiKey, "POST", `/v1/lists/${list.id}/items`, { csv: "bad.test\n" });
    const bt = await req(ws.apiKey, "POST", "/v1/rules/backtest", {
      action: "block",
      expression: 'in_list("bad_domains", email.domain)',
    });
    expect(bt.status).toBe(200);
    expect(bt.body).toMatchObject({ assessments: 3, matched: 2 });
    const unknown = await req(ws.apiKey, "POST", "/v1/rules/backtest", {
      action: "block",
      expression: 'in_list("nope", email.domain)',
    });
    expect(unknown.status).toBe(400);
  });

  it("works through the dashboard's tRPC with a session, and Free is refused there too", async () => {
    const { member } = await ownerAndMember(app().db, "lists", ["suite_business"]);
    const created = await call(member, "lists.create", { name: "vip_users", kind: "user" }, "mutation");
    expect(created.status).toBe(200);
    const added = await call(member, "lists.addItems", { id: created.data.id, items: [{ value: "u-1" }] }, "mutation");
    expect(added.data).toMatchObject({ added: 1 });
    const listed = await call(member, "lists.items", { id: created.data.id }, "query");
    expect(listed.data.items.map((i: { value: string }) => i.value)).toEqual(["u-1"]);
    const other = await ownerAndMember(app().db, "lists-other", ["suite_business"]);
    expect((await call(other.owner, "lists.get", { id: created.data.id }, "query")).code).toBe("NOT_FOUND");
    const free = await ownerAndMember(app().db, "lists-free", ["free"]);
    const refused = await call(free.owner, "lists.list", {}, "query");
    expect(refused.status).toBe(403);
    expect(refused.code).toBe("CAPABILITY_REQUIRED");
  });
});
