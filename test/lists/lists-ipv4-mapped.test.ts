// IPv4-mapped addresses in ip lists (issue 42, item 6): a dual-stack socket reports an IPv4 client as
// ::ffff:a.b.c.d, the same host as a.b.c.d. Items are stored in the IPv4 form (::ffff:8.8.4.4 as 8.8.4.4,
// ::ffff:9.9.0.0/112 as 9.9.0.0/16) and the assessed address is unmapped before matching, so a rule
// in_list("ips", ip.address) blocks the client whichever way either side is written; the migration rewrites items
// stored before. Both stores: DATABASE_URL selects PostgreSQL.
import { describe, expect, it } from "vitest";
import { newId } from "../../server/ids";
import { indexLists, lookupOver } from "../../server/lists/lookup";
import { CHROME_UA, keyedCalls, useAssessmentApp } from "../assessment/setup";
import { runMigrationFile } from "../migration-file";

const { app } = useAssessmentApp();
const { req } = keyedCalls(app);

/** A workspace with an ip list `ips` holding `items`, and an active rule blocking what it holds. */
async function blockingList(items: string[]) {
  const ws = await app().seedWorkspace();
  const list = await req(ws.apiKey, "POST", "/v1/lists", { name: "ips", kind: "ip" });
  expect(list.status).toBe(200);
  const added = await req(ws.apiKey, "POST", `/v1/lists/${list.body.id}/items`, {
    items: items.map((value) => ({ value })),
  });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  const rule = await req(ws.apiKey, "POST", "/v1/rules", {
    name: "Listed addresses",
    action: "block",
    mode: "active",
    expression: 'in_list("ips", ip.address)',
  });
  expect(rule.status, JSON.stringify(rule.body)).toBe(200);
  const decision = async (ip: string) => {
    const res = await req(ws.apiKey, "POST", "/v1/assess", { event: "login", ip, user_agent: CHROME_UA });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.decision as string;
  };
  return { ws, listId: list.body.id as string, decision };
}

describe("IPv4-mapped addresses in ip lists", () => {
  it("stores mapped items in the IPv4 form, addresses and ranges", async () => {
    const { ws, listId } = await blockingList([
      "::ffff:8.8.4.4",
      "::FFFF:0808:0808",
      "::ffff:9.9.0.0/112",
      "::ffff:10.1.2.3/128",
      "::ffff:0:0/96",
      "2001:db8::/32",
    ]);
    const items = (await req(ws.apiKey, "GET", `/v1/lists/${listId}/items`)).body.items;
    expect(items.map((i: { value: string }) => i.value)).toEqual([
      "0.0.0.0/0",
      "10.1.2.3/32",
      "2001:db8::/32",
      "8.8.4.4",
      "8.8.8.8",
      "9.9.0.0/16",
    ]);
  });

  it("a mapped item matches the IPv4 address, and an IPv4 item or range matches the mapped address", async () => {
    const { decision } = await blockingList(["::ffff:8.8.4.4", "9.9.0.0/16", "7.7.7.7", "::ffff:6.6.0.0/120"]);
    expect(await decision("8.8.4.4")).toBe("block");
    expect(await decision("::ffff:8.8.4.4")).toBe("block");
    expect(await decision("::ffff:9.9.1.1")).toBe("block");
    expect(await decision("::ffff:7.7.7.7")).toBe("block");
    expect(await decision("6.6.0.200")).toBe("block");
    expect(await decision("::ffff:6.6.0.200")).toBe("block");
    // Neither form of an address outside the list is blocked.
    expect(await decision("9.10.0.1")).not.toBe("block");
    expect(await decision("::ffff:6.6.1.1")).not.toBe("block");
  });

  it("an IPv6 range that merely contains the mapped block still means IPv6 clients", async () => {
    const { decision } = await blockingList(["::/0"]);
    expect(await decision("2001:4860:4860::8888")).toBe("block");
    expect(await decision("8.8.8.8")).not.toBe("block");
    expect(await decision("::ffff:8.8.8.8")).not.toBe("block");
  });

  it("the index reads items stored in the mapped form before (both directions)", () => {
    const rows = [
      { name: "ips", kind: "ip", value: "::ffff:8.8.4.4", expiresAt: null },
      { name: "ips", kind: "ip", value: "::ffff:9.9.0.0/112", expiresAt: null },
    ];
    const inList = lookupOver(indexLists(rows));
    expect(inList("ips", "8.8.4.4")).toBe(true);
    expect(inList("ips", "::ffff:8.8.4.4")).toBe(true);
    expect(inList("ips", "9.9.200.1")).toBe(true);
    expect(inList("ips", "::ffff:9.9.200.1")).toBe(true);
    expect(inList("ips", "9.8.0.1")).toBe(false);
  });

  it("the migration rewrites stored mapped items of ip lists, drops a mapped duplicate and moves the version", async () => {
    const ws = await app().seedWorkspace();
    const ip = (await req(ws.apiKey, "POST", "/v1/lists", { name: "ips", kind: "ip" })).body;
    const users = (await req(ws.apiKey, "POST", "/v1/lists", { name: "users", kind: "user" })).body;
    // As an earlier release stored them (written here directly, past today's normalisation).
    const stored = [
      [ip.id, "::ffff:8.8.4.4", "mapped"],
      [ip.id, "::ffff:9.9.0.0/112", "mapped range"],
      [ip.id, "::ffff:5.5.5.5", "mapped duplicate"],
      [ip.id, "5.5.5.5", "kept"],
      [ip.id, "::ffff:0:0/95", "IPv6 range"],
      [ip.id, "2001:db8::1", "IPv6"],
      [users.id, "::ffff:8.8.4.4", "a user id, not an address"],
    ];
    for (const [listId, value, note] of stored)
      await app().db.namedListItem.create({ data: { id: newId("item"), listId: listId!, value: value!, note } });
    const before = await app().db.namedList.findUniqueOrThrow({ where: { id: ip.id } });

    await runMigrationFile(app().db, "20261127064500_named_list_unmapped_ipv4");

    const rows = await app().db.namedListItem.findMany({
      where: { listId: { in: [ip.id, users.id] } },
      orderBy: [{ listId: "asc" }, { value: "asc" }],
    });
    const byList = (id: string) => rows.filter((r) => r.listId === id).map((r) => [r.value, r.note]);
    expect(byList(ip.id)).toEqual([
      ["2001:db8::1", "IPv6"],
      ["5.5.5.5", "kept"],
      ["8.8.4.4", "mapped"],
      ["9.9.0.0/16", "mapped range"],
      ["::ffff:0:0/95", "IPv6 range"],
    ]);
    expect(byList(users.id)).toEqual([["::ffff:8.8.4.4", "a user id, not an address"]]);
    const after = await app().db.namedList.findUniqueOrThrow({ where: { id: ip.id } });
    expect(after.version).toBe(before.version + 1);
    expect((await app().db.namedList.findUniqueOrThrow({ where: { id: users.id } })).version).toBe(1);
  });
});

describe("IPv4-mapped addresses in rule conditions", () => {
  it("an ip condition eq, in, neq or not_in written with a mapped address means the IPv4 host, both ways", async () => {
    const ws = await app().seedWorkspace();
    const rules: [string, unknown][] = [
      ["eq", "::ffff:7.7.7.7"],
      ["in", ["::ffff:6.6.6.6", "192.0.2.9"]],
    ];
    for (const [op, value] of rules) {
      const rule = await req(ws.apiKey, "POST", "/v1/rules", {
        name: `Mapped ${op}`,
        action: "block",
        mode: "active",
        conditions: [{ field: "ip", op, value }],
      });
      expect(rule.status, JSON.stringify(rule.body)).toBe(200);
    }
    const unlisted = await req(ws.apiKey, "POST", "/v1/rules", {
      name: "Mapped not_in",
      action: "review",
      mode: "active",
      priority: 10,
      conditions: [
        { field: "ip", op: "not_in", value: ["::ffff:5.5.5.5"] },
        { field: "ip", op: "neq", value: "::ffff:4.4.4.4" },
      ],
    });
    expect(unlisted.status, JSON.stringify(unlisted.body)).toBe(200);
    const decision = async (ip: string) => {
      const res = await req(ws.apiKey, "POST", "/v1/assess", { event: "login", ip, user_agent: CHROME_UA });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return {
        decision: res.body.decision as string,
        rules: (res.body.rules as { name: string }[]).map((r) => r.name),
      };
    };
    for (const ip of ["7.7.7.7", "::ffff:7.7.7.7"]) expect((await decision(ip)).rules, ip).toContain("Mapped eq");
    for (const ip of ["6.6.6.6", "::ffff:6.6.6.6"]) expect((await decision(ip)).rules, ip).toContain("Mapped in");
    for (const ip of ["5.5.5.5", "::ffff:5.5.5.5", "4.4.4.4", "::ffff:4.4.4.4"])
      expect((await decision(ip)).rules, ip).not.toContain("Mapped not_in");
  });
});
