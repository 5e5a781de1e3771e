// Learned weights end to end (real database, the REST API and the dashboard): under the minimum the defaults stay and the
// switch is refused; a switch fits the workspace's own labels, /assess then scores with them and lists the weight
// used; another workspace's labels never count; the switch is audited, owner-only in the dashboard, and reversible.
import { describe, expect, it } from "vitest";
import type { SessionUser } from "../../server/api/context";
import { handleDashboardRequest } from "../../server/api/http/dashboard";
import { newId } from "../../server/ids";
import { ensureUser, inviteMember } from "../../server/workspaces/members";
import { createWorkspace } from "../../server/workspaces/workspaces";
import { CHROME_UA, CLEAN_IP, useAssessmentApp } from "../assessment/setup";

const { app } = useAssessmentApp();

/**
 * `n` labelled assessments: every other one has a disposable email, a third come from hosting. With `disposableIsFraud`
 * a disposable email is fraud 9 times in 10 and anything else 1 time in 5; without it, the other way round.
 */
async function seedLabelled(
  workspaceId: string,
  n: number,
  opts: { disposableIsFraud: boolean; prefix: string; outcome?: (i: number) => string },
) {
  const t0 = Date.now() - 86_400_000;
  const assessments = [];
  const labels = [];
  for (let i = 0; i < n; i++) {
    const disposable = i % 2 === 0;
    const signals = [
      ...(disposable ? [{ code: "email_disposable", weight: 35 }] : []),
      ...(i % 3 === 0 ? [{ code: "ip_hosting", weight: 20 }] : []),
    ];
    const likely = disposable === opts.disposableIsFraud;
    const fraud = likely ? i % 10 !== 0 : i % 5 === 0;
    const requestId = `${opts.prefix}_${i}`;
    assessments.push({
      id: newId("evt"),
      workspaceId,
      requestId,
      type: "assessment",
      createdAt: new Date(t0 + i * 1000),
      data: { event: "signup", score: 0, signals, rules: [] },
    });
    labels.push({
      id: newId("evt"),
      workspaceId,
      requestId,
      type: "assessment.outcome",
      createdAt: new Date(t0 + (n + i) * 1000),
      data: { outcome: opts.outcome?.(i) ?? (fraud ? "fraud" : "legitimate") },
    });
  }
  await app().db.event.createMany({ data: assessments });
  await app().db.event.createMany({ data: labels });
}

const disposableSignup = { event: "signup", ip: CLEAN_IP, email: "someone@mailinator.com", user_agent: CHROME_UA };
const signal = (body: any, code: string) => body.signals.find((s: { code: string }) => s.code === code);
const row = (overview: any, code: string) => overview.signals.find((s: { code: string }) => s.code === code);

describe("learned signal weights", () => {
  it("under the minimum: GET says so, the switch is 409 CONFLICT and the defaults stay", async () => {
    const ws = await app().seedWorkspace();
    await seedLabelled(ws.workspaceId, 10, { disposableIsFraud: true, prefix: "few" });
    const get = await app().request("GET", "/v1/weights", { key: ws.apiKey });
    expect(get.status).toBe(200);
    expect(get.body).toMatchObject({
      weights: "default",
      labelled: { total: 10 },
      minimum: { labels: 50, met: false },
      fitted_at: null,
    });
    expect(get.body.minimum.message).toMatch(/at least 50 labelled assessments .* this workspace has 10/);
    expect(row(get.body, "email_disposable")).toEqual({
      code: "email_disposable",
      default_weight: 35,
      learned_weight: null,
      weight_in_use: 35,
      labels: 5,
      fraud: 4,
      legitimate: 1,
    });
    expect(row(get.body, "ip_tor_exit")).toEqual({
      code: "ip_tor_exit",
      default_weight: 45,
      learned_weight: null,
      weight_in_use: 45,
      labels: 0,
      fraud: 0,
      legitimate: 0,
    });

    const refused = await app().request("POST", "/v1/weights/mode", { key: ws.apiKey, body: { mode: "learned" } });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: { code: "CONFLICT", message: get.body.minimum.message } });
    expect((await app().request("GET", "/v1/weights", { key: ws.apiKey })).body.weights).toBe("default");
    expect(
      await app().db.event.count({ where: { workspaceId: ws.workspaceId, type: "audit.weights.mode_changed" } }),
    ).toBe(0);

    // Enough labels, but all of one class: still refused.
    const oneClass = await app().seedWorkspace();
    await seedLabelled(oneClass.workspaceId, 60, {
      disposableIsFraud: true,
      prefix: "fraudonly",
      outcome: () => "chargeback",
    });
    const again = await app().request("POST", "/v1/weights/mode", { key: oneClass.apiKey, body: { mode: "learned" } });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/60 \(60 fraud, 0 legitimate\)/);
  });

  it("a switch fits this workspace's labels only; /assess scores with them and lists them; back to default", async () => {
    const ws = await app().seedWorkspace();
    const other = await app().seedWorkspace();
    await seedLabelled(ws.workspaceId, 200, { disposableIsFraud: true, prefix: "mine" });
    const before = (await app().request("GET", "/v1/weights", { key: ws.apiKey })).body;
    expect(before.minimum).toEqual({ labels: 50, met: true, message: null });
    expect(before.labelled).toEqual({ total: 200, fraud: 100, legitimate: 100 });
    const learnedDisposable = row(before, "email_disposable").learned_weight;
    expect(learnedDisposable).toBeGreaterThan(45); // the evidence (9 in 10 fraud against 1 in 5) beats the default 35

    // The other workspace labels the opposite story, including labels under this workspace's request ids.
    await seedLabelled(other.workspaceId, 200, { disposableIsFraud: false, prefix: "theirs" });
    await app().db.event.createMany({
      data: Array.from({ length: 50 }, (_, i) => ({
        id: newId("evt"),
        workspaceId: other.workspaceId,
        requestId: `mine_${i}`,
        type: "assessment.outcome",
        data: { outcome: "legitimate" },
      })),
    });
    const after = (await app().request("GET", "/v1/weights", { key: ws.apiKey })).body;
    expect(after.signals).toEqual(before.signals);
    expect(after.labelled).toEqual(before.labelled);
    expect(
      row((await app().request("GET", "/v1/weights", { key: other.apiKey })).body, "email_disposable").learned_weight,
    ).toBeLessThan(0);

    const switched = await app().request("POST", "/v1/weights/mode", { key: ws.apiKey, body: { mode: "learned" } });
    expect(switched.status).toBe(200);
    expect(switched.body).toMatchObject({ weights: "learned", fitted_at: expect.any(String) });
    expect(row(switched.body, "email_disposable")).toMatchObject({
      default_weight: 35,
      learned_weight: learnedDisposable,
      weight_in_use: learnedDisposable,
      labels: 100,
    });
    // Codes without labels keep their default in use.
    expect(row(switched.body, "ip_tor_exit")).toMatchObject({ weight_in_use: 45, labels: 0 });

    const scored = await app().request("POST", "/v1/assess", { key: ws.apiKey, body: disposableSignup });
    expect(scored.status).toBe(200);
    expect(scored.body.weights).toBe("learned");
    expect(signal(scored.body, "email_disposable").weight).toBe(learnedDisposable);
    expect(scored.body.score).toBe(
      Math.max(
        0,
        Math.min(
          100,
          scored.body.signals.reduce((n: number, s: { weight: number }) => n + s.weight, 0),
        ),
      ),
    );
    const recorded = await app().db.event.findFirst({
      where: { workspaceId: ws.workspaceId, requestId: scored.body.request_id, type: "assessment" },
    });
    expect(recorded?.data).toMatchObject({
      weights: "learned",
      signals: expect.arrayContaining([{ code: "email_disposable", weight: learnedDisposable }]),
    });

    // The other workspace still scores with the defaults.
    const theirs = await app().request("POST", "/v1/assess", { key: other.apiKey, body: disposableSignup });
    expect(theirs.body.weights).toBe("default");
    expect(signal(theirs.body, "email_disposable").weight).toBe(35);

    const audit = await app().db.event.findMany({
      where: { workspaceId: ws.workspaceId, type: "audit.weights.mode_changed" },
    });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor: `api_key:${ws.apiKeyId}`,
      data: {
        before: { mode: "default" },
        after: { mode: "learned", weights: expect.objectContaining({ email_disposable: learnedDisposable }) },
      },
    });

    const back = await app().request("POST", "/v1/weights/mode", { key: ws.apiKey, body: { mode: "default" } });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ weights: "default", fitted_at: null });
    expect(row(back.body, "email_disposable").weight_in_use).toBe(35);
    const plain = await app().request("POST", "/v1/assess", { key: ws.apiKey, body: disposableSignup });
    expect(plain.body.weights).toBe("default");
    expect(signal(plain.body, "email_disposable").weight).toBe(35);
    expect(
      await app().db.event.count({ where: { workspaceId: ws.workspaceId, type: "audit.weights.mode_changed" } }),
    ).toBe(2);
  });

  it("a signal whose learned weight is 0 is not listed, yet is recorded so the next fit still sees it fire", async () => {
    const ws = await app().seedWorkspace();
    await app().db.workspaceWeights.create({
      data: { workspaceId: ws.workspaceId, mode: "learned", weights: { email_disposable: 0 }, fittedAt: new Date() },
    });
    const res = await app().request("POST", "/v1/assess", { key: ws.apiKey, body: disposableSignup });
    expect(res.body.weights).toBe("learned");
    expect(signal(res.body, "email_disposable")).toBeUndefined();
    const recorded = await app().db.event.findFirst({
      where: { workspaceId: ws.workspaceId, requestId: res.body.request_id, type: "assessment" },
    });
    expect(recorded?.data).toMatchObject({ weights: "learned", unscored_signals: ["email_disposable"] });
    const labelled = await app().request("POST", `/v1/assess/${res.body.request_id}/outcome`, {
      key: ws.apiKey,
      body: { outcome: "fraud" },
    });
    expect(labelled.status).toBe(200);
    const overview = (await app().request("GET", "/v1/weights", { key: ws.apiKey })).body;
    expect(row(overview, "email_disposable")).toMatchObject({ weight_in_use: 0, labels: 1, fraud: 1 });
  });

  it("in the dashboard a member reads the weights but only an owner switches them", async () => {
    const owner = await ensureUser(app().db, { email: "owner@weights.test" });
    const ownerUser: SessionUser = { userId: owner.id, email: owner.email, name: null };
    const ws = (
      await createWorkspace(app().db, {
        name: "weights",
        plans: ["suite_business"],
        ownerEmail: owner.email,
        ownerUserId: owner.id,
      })
    ).workspaceId;
    await inviteMember(app().db, { workspaceId: ws, email: "member@weights.test", role: "member" });
    const m = await ensureUser(app().db, { email: "member@weights.test" });
    const memberUser: SessionUser = { userId: m.id, email: m.email, name: null };
    await seedLabelled(ws, 60, { disposableIsFraud: true, prefix: "dash" });

    const call = async (path: string, user: SessionUser, input?: unknown) => {
      const headers = new Headers({ "x-service-workspace": ws });
      let req = new Request(`http://127.0.0.1:3000/api/trpc/${path}?input=${encodeURIComponent("{}")}`, { headers });
      if (input !== undefined) {
        headers.set("content-type", "application/json");
        headers.set("origin", "http://127.0.0.1:3000");
        req = new Request(`http://127.0.0.1:3000/api/trpc/${path}`, {
          method: "POST",
          headers,
          body: JSON.stringify(input),
        });
      }
      const res = await handleDashboardRequest(req, async () => user);
      const body = (await res.json()) as any;
      return { status: res.status, data: body.result?.data, code: body.error?.data?.appCode as string | undefined };
    };
    const read = await call("weights.get", memberUser);
    expect(read.status).toBe(200);
    expect(read.data.weights).toBe("default");
    const refused = await call("weights.setMode", memberUser, { mode: "learned" });
    expect(refused).toMatchObject({ status: 403, code: "FORBIDDEN" });
    const done = await call("weights.setMode", ownerUser, { mode: "learned" });
    expect(done.status).toBe(200);
    expect(done.data.weights).toBe("learned");
    const audit = await app().db.event.findFirst({ where: { workspaceId: ws, type: "audit.weights.mode_changed" } });
    expect(audit?.actor).toBe(`user:${owner.id}`);
  });
});
