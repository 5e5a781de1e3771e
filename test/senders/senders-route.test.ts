// {account_url}/api/account/senders end to end through the route's handler, with a real database and a fake DNS
// server: adding, slots per plan, TXT verification, posture, owner-only changes, session-only access, the Origin
// rule, tenant isolation and the audit trail.
import { afterAll, describe, expect, it } from "vitest";
import { startFakeDnsServer } from "../fakes/dns-server";
import { createTestApp } from "../harness";
import { setPlans } from "../../server/workspaces/workspaces";
import { inviteMember } from "../../server/workspaces/members";
import { healthyZone, ownWorkspace, publishVerification, senders, signedIn, useFakeDnsFor } from "./helpers";

const app = await createTestApp();
const dns = await startFakeDnsServer({
  records: { ...healthyZone("good-mail.com"), ...healthyZone("second-mail.com") },
});
useFakeDnsFor(dns);
afterAll(() => dns.close());

const SLOT_PLANS =
  "Paid Email subscription, Suite Starter, Suite Business, Lookups Developer, Suite Agency or Lookups Growth";

describe("account senders route", () => {
  it("adds a domain sender with the TXT record to publish, pending, and lists it to members too", async () => {
    const owner = await signedIn(app, "add-owner@senders.test");
    const { workspaceId: ws } = await ownWorkspace(app, owner, ["email"]);
    const r = await senders(
      "POST",
      "",
      { user: owner, workspaceId: ws },
      { domain: "Good-Mail.com.", dkim_selectors: ["S1"] },
    );
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      kind: "domain",
      domain: "good-mail.com",
      address: null,
      dkim_selectors: ["s1"],
      status: "pending",
      verified_at: null,
      monitored: false,
      not_monitored_reason: "Not verified yet: publish the TXT record, then verify.",
      posture: null,
    });
    expect(r.body.id).toMatch(/^snd_/);
    expect(r.body.verification.type).toBe("TXT");
    expect(r.body.verification.name).toBe("_service-verification.good-mail.com");
    expect(r.body.verification.value).toMatch(/^service-verification=[A-Za-z0-9_-]{24}$/);
    expect(r.headers.get("cache-control")).toBe("private, no-store");

    await setPlans(app.db, { workspaceId: ws, plans: ["email", "suite_starter"] }); // Email alone includes one member
    await inviteMember(app.db, { workspaceId: ws, email: "reader@senders.test" });
    const member = await signedIn(app, "reader@senders.test");
    const list = await senders("GET", "", { user: member, workspaceId: ws });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ slots: 3, used: 1, items: [{ id: r.body.id, domain: "good-mail.com" }] });
    const denied = await senders("POST", "", { user: member, workspaceId: ws }, { domain: "second-mail.com" });
    expect(denied).toMatchObject({ status: 403, body: { error: { code: "FORBIDDEN" } } });
    expect(await app.db.sender.count({ where: { workspaceId: ws } })).toBe(1);
  });

  it("adds a single address, its domain verified like a domain's", async () => {
    const owner = await signedIn(app, "address-owner@senders.test");
    const { workspaceId: ws } = await ownWorkspace(app, owner, ["suite_starter"]);
    const r = await senders("POST", "", { user: owner, workspaceId: ws }, { address: "Billing@Good-Mail.com" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      kind: "address",
      address: "billing@good-mail.com",
      domain: "good-mail.com",
      dkim_selectors: [],
    });
    expect(r.body.verification.name).toBe("_service-verification.good-mail.com");
  });

  it("refuses a Free workspace with 403 CAPABILITY_REQUIRED naming the plans that have slots", async () => {
    const owner = await signedIn(app, "free-owner@senders.test");
    const { workspaceId: ws } = await ownWorkspace(app, owner, ["free"]);
    const r = await senders("POST", "", { user: owner, workspaceId: ws }, { domain: "good-mail.com" });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({
      error: {
        code: "CAPABILITY_REQUIRED",
        message: `Sender slots come with the ${SLOT_PLANS}; this workspace's plan has none.`,
      },
    });
    expect((await senders("GET", "", { user: owner, workspaceId: ws })).body).toEqual({
      items: [],
      slots: 0,
      used: 0,
      plans_with_slots: SLOT_PLANS.split(/, | or /),
    });
  });

  it("refuses a sender beyond the plan's slots with 409 SENDER_LIMIT_REACHED, and a duplicate with 409 CONFLICT", async () => {
    const owner = await signedIn(app, "slots-owner@senders.test");
    const { workspaceId: ws } = await ownWorkspace(app, owner, ["suite_starter"]); // 1 slot
    expect((await senders("POST", "", { user: owner, workspaceId: ws }, { domain: "good-mail.com" })).status).toBe(200);
    const dup = await senders("POST", "", { user: owner, workspaceId: ws }, { domain: "GOOD-mail.com" });
    expect(dup.body).toEqual({
      error: { code: "CONFLICT", message: "good-mail.com is already a sender of this workspace." },
    });
    const beyond = await senders("POST", "", { user: owner, workspaceId: ws }, { domain: "second-mail.com" });
    expect(beyond.status).toBe(409);
    expect(beyond.body).toEqual({
      error: {
        code: "SENDER_LIMIT_REACHED",
        message: "This workspace's plan has 1 sender slot, all in use; remove a sender or ask for a plan with more.",
      },
    });
    await setPlans(app.db, { workspaceId: ws, plans: ["suite_business"] }); // 5 slots
    expect((await senders("POST", "", { user: owner, workspaceId: ws }, { domain: "second-mail.com" })).status).toBe(
      200,
    );
    expect(await app.db.event.count({ where: { workspaceId: ws, type: "audit.sender.added" } })).toBe(2);
  });

  it.each([
    [{ domain: "good-mail.com", address: "a@good-mail.com" }, "send either domain or address, not both"],
    [{}, "send either domain or address, not both"],
    [{ domain: "not a domain" }, "domain: A domain name has no spaces, slashes, ports, @ or brackets."],
    [{ domain: "localhost" }, "domain: a sending domain has at least two labels and no underscores, e.g. example.com."],
    [{ address: "no-at-sign" }, "address: The address has no @."],
    [
      { domain: "good-mail.com", dkim_selectors: ["bad selector"] },
      "dkim_selectors.0: a DKIM selector is one or more DNS labels, e.g. s1",
    ],
    [{ domain: "good-mail.com", extra: 1 }, null],
  ])("refuses %j with 400 INVALID_REQUEST and adds nothing", async (body, message) => {
    const owner = await signedIn(app, `bad-${Math.random().toString(36).slice(2)}@senders.test`);
    const { workspaceId: ws } = await ownWorkspace(app, owner, ["email"]);
    const r = await senders("POST", "", { user: owner, workspaceId: ws }, body);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("INVALID_REQUEST");
    if (message) expect(r.body.error.message).toBe(message);
    expect(await app.db.sender.count({ where: { workspaceId: ws } })).toBe(0);
  });

  it("verifies through the DNS client once the TXT record is published, then shows the posture", async () => {
    const owner = await signedIn(app, "verify-owner@senders.test");
    const { workspaceId: ws } = await ownWorkspace(app, owner, ["email"]);
    const added = (
      await senders("POST", "", { user: owner, workspaceId: ws }, { domain: "good-mail.com", dkim_selectors: ["s1"] })
    ).body;
    const early = await senders("POST", `/${added.id}/verify`, { user: owner, workspaceId: ws });
    expect(early.status).toBe(409);
    expect(early.body).toEqual({
      error: {
        code: "CONFLICT",
        message: `No TXT record "${added.verification.value}" at _service-verification.good-mail.com yet. Publish it at your DNS provider; new records can take a few minutes to appear.`,
      },
    });

    dns.down = true;
    const down = await senders("POST", `/${added.id}/verify`, { user: owner, workspaceId: ws });
    dns.down = false;
    expect(down.status).toBe(503);
    expect(down.body.error.code).toBe("UPSTREAM_UNAVAILABLE");
    expect((await app.db.sender.findUniqueOrThrow({ where: { id: added.id } })).status).toBe("pending");

    publishVerification(dns, added);
    const ok = await senders("POST", `/${added.id}/verify`, { user: owner, workspaceId: ws });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: "verified", monitored: true, not_monitored_reason: null });
    expect(Date.parse(ok.body.verified_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(ok.body.posture).toMatchObject({
      overall: "pass",
      spf: { status: "pass" },
      dkim: { status: "pass", selectors: ["s1"], reason: "DKIM key found at s1." },
      dmarc: { status: "pass", policy: "reject" },
      blocklists: { status: "not_listed", listed_on: [] },
    });
    expect(ok.body.last_checked_at).toBe(ok.body.posture.checked_at);
    expect(dns.queries.some((q) => q.name === "_service-verification.good-mail.com" && q.type === "TXT")).toBe(true);

    const again = await senders("POST", `/${added.id}/verify`, { user: owner, workspaceId: ws });
    expect(again.status).toBe(200);
    const audit = await app.db.event.findMany({ where: { workspaceId: ws, type: "audit.sender.verified" } });
    expect(audit).toHaveLength(1);
    expect(audit[0].actor).toBe(`user:${owner.userId}`);
    expect(audit[0].data).toMatchObject({
      target: { kind: "sender", id: added.id, label: "good-mail.com" },
      before: { status: "pending" },
      after: { status: "verified" },
    });
    // Unmetered: neither adding nor verifying spends a lookup unit.
    expect(await app.used(ws)).toBe(0);
  });

  it("removes a sender for an owner only, with an audit event", async () => {
    const owner = await signedIn(app, "remove-owner@senders.test");
    const { workspaceId: ws } = await ownWorkspace(app, owner, ["suite_business"]);
    const added = (await senders("POST", "", { user: owner, workspaceId: ws }, { domain: "good-mail.com" })).body;
    await inviteMember(app.db, { workspaceId: ws, email: "remove-member@senders.test" });
    const member = await signedIn(app, "remove-member@senders.test");
    expect((await senders("DELETE", `/${added.id}`, { user: member, workspaceId: ws })).status).toBe(403);
    const r = await senders("DELETE", `/${added.id}`, { user: owner, workspaceId: ws });
    expect(r).toMatchObject({ status: 200, body: { id: added.id, removed: true } });
    expect(await app.db.sender.count({ where: { workspaceId: ws } })).toBe(0);
    const e = await app.db.event.findFirstOrThrow({ where: { workspaceId: ws, type: "audit.sender.removed" } });
    expect(e.data).toMatchObject({
      target: { id: added.id, label: "good-mail.com" },
      before: { kind: "domain", value: "good-mail.com", status: "pending" },
    });
    expect((await senders("DELETE", `/${added.id}`, { user: owner, workspaceId: ws })).status).toBe(404);
  });

  it("refuses a parameter a route does not take with 400 INVALID_REQUEST naming it, changing nothing, as /v1 does", async () => {
    // README "Requests the API reads": an unknown field of a JSON body, or a query parameter where a route reads the
    // query (GET and DELETE, as on /v1), is refused, never dropped.
    const owner = await signedIn(app, "unknown-params@senders.test");
    const { workspaceId: ws } = await ownWorkspace(app, owner, ["suite_business"]);
    const added = (await senders("POST", "", { user: owner, workspaceId: ws }, { domain: "good-mail.com" })).body;
    const refused = [
      await senders("GET", "?status=verified", { user: owner, workspaceId: ws }),
      await senders("DELETE", `/${added.id}?force=1`, { user: owner, workspaceId: ws }),
      await senders("POST", `/${added.id}/verify`, { user: owner, workspaceId: ws }, { selector: "s1" }),
    ];
    expect(refused.map((r) => [r.status, r.body.error?.code])).toEqual(Array(3).fill([400, "INVALID_REQUEST"]));
    expect(refused.map((r) => r.body.error.message)).toEqual([
      expect.stringMatching(/^Received unknown parameter: status\b/),
      expect.stringMatching(/^Received unknown parameter: force\b/),
      expect.stringMatching(/^Received unknown parameter: selector\b/),
    ]);
    expect(await app.db.sender.findUniqueOrThrow({ where: { id: added.id } })).toMatchObject({ status: "pending" });
    // Without a session the answer is still 401, whatever the parameters.
    expect((await senders("GET", "?status=verified", { user: null, workspaceId: ws })).status).toBe(401);
    expect((await senders("GET", "", { user: owner, workspaceId: ws })).status).toBe(200);
    expect((await senders("POST", `/${added.id}/verify`, { user: owner, workspaceId: ws }, {})).status).not.toBe(400);
    // A member is refused the owners' routes 403 whatever they send, as without the parameter: access before input.
    await inviteMember(app.db, { workspaceId: ws, email: "member-params@senders.test" });
    const member = await signedIn(app, "member-params@senders.test");
    const asMember = [
      await senders("DELETE", `/${added.id}?force=1`, { user: member, workspaceId: ws }),
      await senders("DELETE", `/${added.id}`, { user: member, workspaceId: ws }),
      await senders("POST", `/${added.id}/verify`, { user: member, workspaceId: ws }, { selector: "s1" }),
    ];
    expect(asMember.map((r) => [r.status, r.body.error?.code])).toEqual(Array(3).fill([403, "FORBIDDEN"]));
    expect(await app.db.sender.count({ where: { id: added.id } })).toBe(1);
  });

  it("removes a sender once when the removal is sent several times at once; the others are 404, never 500", async () => {
    // On PostgreSQL the removals overlap: each read the row before the first one's delete committed.
    const owner = await signedIn(app, "remove-twice@senders.test");
    const { workspaceId: ws } = await ownWorkspace(app, owner, ["suite_business"]);
    const added = (await senders("POST", "", { user: owner, workspaceId: ws }, { domain: "good-mail.com" })).body;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => senders("DELETE", `/${added.id}`, { user: owner, workspaceId: ws })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 404, 404, 404, 404, 404, 404, 404]);
    expect(await app.db.event.count({ where: { workspaceId: ws, type: "audit.sender.removed" } })).toBe(1);
  });

  it("answers another workspace's sender as 404 NOT_FOUND and changes nothing", async () => {
    const a = await signedIn(app, "tenant-a@senders.test");
    const b = await signedIn(app, "tenant-b@senders.test");
    const { workspaceId: wsA } = await ownWorkspace(app, a, ["email"]);
    const { workspaceId: wsB } = await ownWorkspace(app, b, ["email"]);
    const theirs = (await senders("POST", "", { user: b, workspaceId: wsB }, { domain: "good-mail.com" })).body;
    publishVerification(dns, theirs);
    for (const [method, path] of [
      ["DELETE", `/${theirs.id}`],
      ["POST", `/${theirs.id}/verify`],
    ] as const) {
      const r = await senders(method, path, { user: a, workspaceId: wsA });
      expect(r).toMatchObject({ status: 404, body: { error: { code: "NOT_FOUND", message: "No such sender." } } });
    }
    expect((await senders("GET", "", { user: a, workspaceId: wsA })).body.items).toEqual([]);
    expect(await app.db.sender.findUniqueOrThrow({ where: { id: theirs.id } })).toMatchObject({ status: "pending" });
  });

  it("refuses API keys and missing sessions with 401 UNAUTHORIZED", async () => {
    const owner = await signedIn(app, "key-owner@senders.test");
    const { workspaceId: ws, apiKey } = await ownWorkspace(app, owner, ["email"]);
    for (const headers of [{ authorization: `Bearer ${apiKey}` }, { "x-api-key": apiKey }] as Record<
      string,
      string
    >[]) {
      const list = await senders("GET", "", { user: null, headers });
      expect(list.status).toBe(401);
      expect(list.body).toEqual({
        error: {
          code: "UNAUTHORIZED",
          message: "API keys work on /v1 only; sign in to the dashboard for account routes.",
        },
      });
      expect((await senders("POST", "", { user: null, headers }, { domain: "good-mail.com" })).status).toBe(401);
    }
    expect((await senders("GET", "", { user: null })).body).toEqual({
      error: { code: "UNAUTHORIZED", message: "Sign in first." },
    });
    expect(await app.db.sender.count({ where: { workspaceId: ws } })).toBe(0);
  });

  it("refuses a change from another origin, or without an Origin header, with 403 ORIGIN_FORBIDDEN", async () => {
    const owner = await signedIn(app, "origin-owner@senders.test");
    const { workspaceId: ws } = await ownWorkspace(app, owner, ["email"]);
    for (const origin of ["https://evil.example", null]) {
      const r = await senders("POST", "", { user: owner, workspaceId: ws, origin }, { domain: "good-mail.com" });
      expect(r).toMatchObject({ status: 403, body: { error: { code: "ORIGIN_FORBIDDEN" } } });
    }
    const crossSiteRead = await senders("GET", "", {
      user: owner,
      workspaceId: ws,
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(crossSiteRead.status).toBe(403);
    expect(await app.db.sender.count({ where: { workspaceId: ws } })).toBe(0);
  });

  it("answers unknown paths and methods with 404 LOOKUP_NOT_FOUND", async () => {
    const owner = await signedIn(app, "paths-owner@senders.test");
    const { workspaceId: ws } = await ownWorkspace(app, owner, ["email"]);
    const put = await senders("PUT", "", { user: owner, workspaceId: ws });
    expect(put).toMatchObject({ status: 404, body: { error: { code: "LOOKUP_NOT_FOUND" } } });
    expect(put.headers.get("allow")).toBe("GET, POST");
    expect((await senders("GET", "/snd_x/verify", { user: owner, workspaceId: ws })).status).toBe(404);
    expect((await senders("POST", "/snd_x/other", { user: owner, workspaceId: ws })).status).toBe(404);
  });

  it("after a downgrade keeps every sender listed and monitors only the oldest within the slots", async () => {
    const owner = await signedIn(app, "downgrade-owner@senders.test");
    const { workspaceId: ws } = await ownWorkspace(app, owner, ["email"]); // 3 slots
    const first = (await senders("POST", "", { user: owner, workspaceId: ws }, { domain: "good-mail.com" })).body;
    const second = (await senders("POST", "", { user: owner, workspaceId: ws }, { domain: "second-mail.com" })).body;
    for (const s of [first, second]) {
      publishVerification(dns, s);
      expect((await senders("POST", `/${s.id}/verify`, { user: owner, workspaceId: ws })).body.monitored).toBe(true);
    }
    await setPlans(app.db, { workspaceId: ws, plans: ["suite_starter"] }); // 1 slot
    const list = (await senders("GET", "", { user: owner, workspaceId: ws })).body;
    expect(list).toMatchObject({ slots: 1, used: 2 });
    expect(list.items.map((s: any) => [s.domain, s.monitored, s.not_monitored_reason])).toEqual([
      ["good-mail.com", true, null],
      [
        "second-mail.com",
        false,
        "The workspace's plan has 1 sender slot and older senders hold it, so this sender is not monitored.",
      ],
    ]);
    await setPlans(app.db, { workspaceId: ws, plans: ["free"] });
    const free = (await senders("GET", "", { user: owner, workspaceId: ws })).body;
    expect(free.items.map((s: any) => s.not_monitored_reason)).toEqual([
      "The workspace's plan has no sender slots, so this sender is not monitored.",
      "The workspace's plan has no sender slots, so this sender is not monitored.",
    ]);
  });
});
