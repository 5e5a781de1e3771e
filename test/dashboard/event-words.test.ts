// The Events page says what an account change was in words: the operator's plan grant read "workspace ws_5_3tj…, by
// The service operator (plan set --workspace ws_5_3tj… --plan suite_agency)": the workspace's internal id and the
// operator's command line, and no plan by its name. It now reads "Plan Suite Agency (was Free), by the service
// operator"; the command stays in the record (Show the whole record, the CSV, /v1/events).
import { describe, expect, it } from "vitest";
import {
  actorText,
  changeValueText,
  eventSummary,
  targetText,
  type EventRecord,
} from "../../app/dashboard/events/describe";

const workspaceId = "ws_5_3tjSU8fSsQZSSE";
const operator = { kind: "operator", command: `plan set --workspace ${workspaceId} --plan suite_agency` };

function planChanged(before: string[], after: string[]): EventRecord {
  return {
    id: "evt_1",
    requestId: "req_1",
    type: "audit.plan.changed",
    actor: "operator",
    ip: null,
    email: null,
    domain: null,
    rule: null,
    data: {
      actor: operator,
      target: { kind: "workspace", id: workspaceId },
      before: { plans: before },
      after: { plans: after, paused_keys: 0 },
    },
    created_at: "2026-11-29T03:37:00.000Z",
  };
}

describe("an account change on the Events page", () => {
  it("names the plans a plan change went from and to, and who made it, without ids or the operator's command", () => {
    const text = eventSummary(planChanged(["free"], ["suite_agency"]));
    expect(text).toBe("Plan Suite Agency (was Free), by the service operator");
    expect(text).not.toMatch(/ws_|--|suite_agency/);
  });

  it("lists several plans by name", () => {
    expect(eventSummary(planChanged(["email", "suite_starter"], ["email", "suite_agency"]))).toBe(
      "Plan Paid Email subscription and Suite Agency (was Paid Email subscription and Suite Starter), by the service operator",
    );
  });

  it("the detail panel says who, what and the plans in words", () => {
    expect(actorText(operator, "operator")).toBe("The service operator");
    expect(targetText({ kind: "workspace", id: workspaceId })).toBe("This workspace");
    // The target begins the line: its kind is capitalised.
    expect(targetText({ kind: "webhook", id: "wh_1", label: "Fraud alerts" })).toBe("Webhook Fraud alerts");
    expect(targetText({ kind: "api_key", id: "key_1", label: "ci (svc_live_ab…)" })).toBe("API key ci (svc_live_ab…)");
    expect(changeValueText("plans", ["suite_agency"])).toBe("Suite Agency");
    expect(changeValueText("paused_keys", 0)).toBe("0");
  });
});

describe("a webhook delivery event", () => {
  const delivery = (data: Record<string, unknown>): EventRecord => ({
    id: "evt_2",
    requestId: "req_2",
    type: "webhook.delivery_failed",
    actor: null,
    ip: null,
    email: null,
    domain: null,
    rule: null,
    data,
    created_at: "2026-11-28T10:00:00.000Z",
  });

  it("says the webhook by its name and address, never by its id", () => {
    const summary = eventSummary(
      delivery({
        webhook_id: "wh_9fK2",
        webhook_name: "Fraud alerts",
        webhook_url: "https://hooks.example.com/in",
        last_status: 500,
      }),
    );
    expect(summary).toBe("Webhook “Fraud alerts” to https://hooks.example.com/in: the receiver answered 500");
    // Written before the name was kept: "A webhook", the id staying in the whole record.
    expect(eventSummary(delivery({ webhook_id: "wh_9fK2", last_error: "timed out" }))).toBe("A webhook: timed out");
  });
});

describe("a change made with an API key", () => {
  const actor = { kind: "api_key", apiKeyId: "key_01a225ebef880000hxiHo7qBHyCO" };
  it("says the key by its name and prefix from the workspace's key list, never by its id", () => {
    const keys = new Map([[actor.apiKeyId, "“ci” (svc_live_ab…)"]]);
    expect(actorText(actor, `api_key:${actor.apiKeyId}`, keys)).toBe("The API key “ci” (svc_live_ab…)");
    // A key the list does not hold (the list not loaded yet): no id either; the whole record keeps it.
    expect(actorText(actor, `api_key:${actor.apiKeyId}`)).toBe("An API key");
    expect(actorText(actor, null, new Map())).toBe("An API key");
  });

  it('says who mid-sentence in lower case after "by" (it read "List bad_users, by The API key …")', () => {
    const keys = new Map([[actor.apiKeyId, "“ci” (svc_live_ab…)"]]);
    const created: EventRecord = {
      id: "evt_1",
      type: "audit.list.created",
      created_at: "2026-11-29T11:53:00Z",
      actor: `api_key:${actor.apiKeyId}`,
      data: { actor, target: { kind: "list", name: "bad_users" } },
    } as unknown as EventRecord;
    expect(eventSummary(created, keys)).toMatch(/, by the API key “ci” \(svc_live_ab…\)$/);
    expect(eventSummary(created)).toMatch(/, by an API key$/);
  });
});
