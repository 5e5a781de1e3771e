// One mailbox spelled five ways is one email (issue 45, item 1): velocity counts it once, the account (per-user
// baseline) is one, an email list item matches every spelling, and the answer shows the canonical mailbox beside the
// address as it was sent, which is still what is stored. Through /v1 (the plain door) and the dashboard's tRPC door.
import { describe, expect, it } from "vitest";
import { call, ownerAndMember } from "../dashboard/call";
import { CHROME_UA, CLEAN_IP, useAssessmentApp } from "./setup";

const { app } = useAssessmentApp();

const SPELLINGS = [
  "alice@gmail.com",
  "a.l.i.c.e+1@gmail.com",
  "alice+2@googlemail.com",
  "ALICE@gmail.com",
  "A.lice+farm@GoogleMail.com",
];

async function storedEvents(workspaceId: string) {
  return app().db.event.findMany({ where: { workspaceId, type: "assessment" }, orderBy: { createdAt: "asc" } });
}

describe("canonical email in /assess", () => {
  it("counts a Gmail mailbox spelled five ways as one in velocity and one account (/v1)", async () => {
    const ws = await app().seedWorkspace();
    const answers = [];
    for (const email of SPELLINGS) {
      const r = await app().request("POST", "/v1/assess", {
        key: ws.apiKey,
        body: { event: "signup", ip: CLEAN_IP, email, user_agent: CHROME_UA },
      });
      expect(r.status).toBe(200);
      answers.push(r.body);
    }
    expect(answers.map((a) => a.email.normalized)).toEqual(Array(5).fill("alice@gmail.com"));
    expect(answers.map((a) => a.email.subaddressed)).toEqual([false, true, true, false, true]);
    // The address as sent (lower case) is what is shown and stored.
    expect(answers.map((a) => a.email.address)).toEqual(SPELLINGS.map((s) => s.toLowerCase()));

    const events = await storedEvents(ws.workspaceId);
    expect(events.map((e) => e.email)).toEqual(SPELLINGS.map((s) => s.toLowerCase()));
    expect(new Set(events.map((e) => e.emailNormalized))).toEqual(new Set(["alice@gmail.com"]));
    expect(new Set(events.map((e) => e.subject))).toEqual(new Set(["email:alice@gmail.com"]));
    // Velocity: each assessment saw every earlier spelling as the same email.
    const facts = events.map((e) => (e.data as { facts: Record<string, unknown> }).facts);
    expect(facts.map((f) => f["velocity.email_1h"])).toEqual([0, 1, 2, 3, 4]);
    expect(facts.map((f) => f["velocity.ip_emails_1h"])).toEqual([1, 1, 1, 1, 1]);
    expect(facts[4]!["email.normalized"]).toBe("alice@gmail.com");
    expect(facts[4]!["email.subaddressed"]).toBe(true);
    // The fifth signup is past the email velocity's first tier (3 earlier): the signal says so, and that the count
    // takes in the mailbox's other spellings (the address as sent was assessed once).
    const velocity = (a: { signals: { code: string; reason: string }[] }) =>
      a.signals.find((s) => s.code === "velocity_email");
    expect(velocity(answers[4])?.reason).toMatch(
      /^This email address \(with other spellings of its mailbox, such as dots or \+tags\) was assessed 4 times in the last \d+ minutes:/,
    );
    // Its account has a baseline of the four before (the account key is the mailbox).
    expect(answers[4].account).toMatchObject({ key: "email" });

    // Search by one spelling finds every spelling.
    const found = await app().request("GET", `/v1/events?query=${encodeURIComponent("a.lice@googlemail.com")}`, {
      key: ws.apiKey,
    });
    expect(found.status).toBe(200);
    expect(found.body.items).toHaveLength(5);
  });

  it("counts the five spellings as one through the dashboard's tRPC door", async () => {
    const { owner } = await ownerAndMember(app().db, "canon", ["suite_business"]);
    for (const email of SPELLINGS) {
      const r = await call(owner, "assessment.assess", { event: "signup", ip: CLEAN_IP, email }, "mutation");
      expect(r.status).toBe(200);
      expect(r.data.email.normalized).toBe("alice@gmail.com");
    }
    const events = await storedEvents(owner.workspaceId);
    expect(events.map((e) => (e.data as { facts: Record<string, unknown> }).facts["velocity.email_1h"])).toEqual([
      0, 1, 2, 3, 4,
    ]);
  });

  it("matches an email list item for every spelling of its mailbox, and keeps the item as it was added", async () => {
    const ws = await app().seedWorkspace();
    const req = (method: string, path: string, body?: unknown) =>
      app().request(method, path, { key: ws.apiKey, ...(body === undefined ? {} : { body }) });
    const list = (await req("POST", "/v1/lists", { name: "blocked_mailboxes", kind: "email" })).body;
    await req("POST", `/v1/lists/${list.id}/items`, { items: [{ value: "A.Lice+old@googlemail.com" }] });
    const items = await req("GET", `/v1/lists/${list.id}/items`);
    expect(items.body.items.map((i: { value: string }) => i.value)).toEqual(["a.lice+old@googlemail.com"]);
    const rule = await req("POST", "/v1/rules", {
      name: "Blocked mailbox",
      action: "block",
      expression: 'in_list("blocked_mailboxes", email.address)',
    });
    expect(rule.status).toBe(200);
    for (const email of SPELLINGS) {
      const r = await req("POST", "/v1/assess", { event: "login", ip: CLEAN_IP, email, user_agent: CHROME_UA });
      expect([email, r.body.decision]).toEqual([email, "block"]);
    }
    // Another mailbox at the same provider, and the same local part elsewhere, do not match.
    for (const email of ["alice1@gmail.com", "alice@example.com", "alice@outlook.com"]) {
      const r = await req("POST", "/v1/assess", { event: "login", ip: CLEAN_IP, email, user_agent: CHROME_UA });
      expect([email, r.body.rules]).toEqual([email, []]);
    }
  });
  it("links a Proton signup farm spelled with dots, underscores and hyphens as one mailbox (/v1)", async () => {
    // Proton treats ".", "_" and "-" in a username as transparent: bob.smith, bob_smith and bob-smith are one mailbox.
    const ws = await app().seedWorkspace();
    const spellings = ["bobsmith@proton.me", "bob.smith@proton.me", "bob_smith+1@proton.me", "Bob-Smith@proton.me"];
    const answers = [];
    for (const [i, email] of spellings.entries()) {
      const r = await app().request("POST", "/v1/assess", {
        key: ws.apiKey,
        body: { event: "signup", ip: CLEAN_IP, email, user_id: `proton-${i}`, user_agent: CHROME_UA },
      });
      expect(r.status).toBe(200);
      answers.push(r.body);
    }
    expect(answers.map((a) => a.email.normalized)).toEqual(Array(4).fill("bobsmith@proton.me"));
    const last = answers[3];
    expect(last.linked_accounts.by).toContainEqual({
      kind: "email",
      accounts_30d: 3,
      names: ["proton-2", "proton-1", "proton-0"],
    });
    const events = await storedEvents(ws.workspaceId);
    const facts = (events[3]!.data as { facts: Record<string, unknown> }).facts;
    expect(facts["email.accounts_30d"]).toBe(4);
  });
});
