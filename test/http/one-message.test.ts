// A 400 names its field and says one thing about it (walk #15): a domain's own check reports an empty or overlong name
// once (not beside zod's generic length bound, with a second limit), the webhook URL's refusal names `url`, a list
// item is `items.1` as every other path is written (`items.0.expires_at`), and a rule's unknown field is a sentence.
import { describe, expect, it } from "vitest";
import { inFormWords } from "../../app/dashboard/_components/field-words";
import { WEBHOOK_LABELS } from "../../app/dashboard/webhooks/WebhookForm";
import { createTestApp } from "../harness";

const app = await createTestApp();

describe("one field, one message", () => {
  it("a domain that is empty or too long: the domain check's message alone", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const cases: [string, string][] = [
      ["/v1/dns/lookup?domain=", "domain: A domain name is required."],
      [`/v1/domain/${"a".repeat(300)}.com`, "domain: A domain name is at most 253 characters."],
      [`/v1/dns/lookup?domain=${"a".repeat(300)}.com`, "domain: A domain name is at most 253 characters."],
      ["/v1/email/security?domain=", "domain: A domain name is required."],
    ];
    for (const [path, message] of cases) {
      const res = await app.request("GET", path, { key: ws.apiKey });
      expect(res.status, path).toBe(400);
      expect(res.body.error.message, path).toBe(message);
    }
  });

  it("a webhook URL's refusal names url", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const res = await app.request("POST", "/v1/webhooks", {
      key: ws.apiKey,
      body: { name: "w", url: "ftp://example.com/x", event_types: ["high_risk_assessment"] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^url: /);
    // The dashboard's webhook form says it by its label.
    expect(inFormWords("url: must start with https://.", WEBHOOK_LABELS)).toBe(
      "Receiver URL must start with https://.",
    );
  });

  it("a list item's path is written as every other path: items.1", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const list = await app.request("POST", "/v1/lists", { key: ws.apiKey, body: { name: "emails", kind: "email" } });
    expect(list.status).toBe(200);
    const res = await app.request("POST", `/v1/lists/${list.body.id}/items`, {
      key: ws.apiKey,
      body: { items: [{ value: "a@b.co" }, { value: "x" }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^items\.1 \("x"\) /);
  });

  it("an empty list of items names the field it is empty in: items, or csv", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const list = await app.request("POST", "/v1/lists", { key: ws.apiKey, body: { name: "empty", kind: "email" } });
    const none = await app.request("POST", `/v1/lists/${list.body.id}/items`, { key: ws.apiKey, body: { items: [] } });
    expect(none.status).toBe(400);
    expect(none.body.error).toEqual({
      code: "INVALID_REQUEST",
      message: "items: must have at least 1 item; nothing was added.",
    });
    const header = await app.request("POST", `/v1/lists/${list.body.id}/items`, {
      key: ws.apiKey,
      body: { csv: "value,expires_at,note\n" },
    });
    expect(header.status).toBe(400);
    expect(header.body.error.message).toBe("csv: holds no item (only a header or empty lines); nothing was added.");
  });

  // zod's words were "payment: Unrecognized key: \"cvv\"": said as a top-level unknown field is said, naming the field.
  it("a field a nested object does not take is named with its path and what the object takes", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const payment = { bin: "424242", last4: "4242", amount: 4999, currency: "USD", status: "succeeded" };
    const one = await app.request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "checkout", ip: "8.8.8.8", payment: { ...payment, cvv: "123" } },
    });
    expect(one.status).toBe(400);
    expect(one.body.error).toEqual({
      code: "INVALID_REQUEST",
      message:
        "Received unknown parameter: payment.cvv. payment takes: amount, bin, currency, decline_code, fingerprint, last4, status.",
    });
    const two = await app.request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "checkout", ip: "8.8.8.8", payment: { ...payment, cvv: "123", expiry: "12/28" } },
    });
    expect(two.body.error.message).toMatch(
      /^Received unknown parameters: payment\.cvv, payment\.expiry\. payment takes: /,
    );
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it("a rule's unknown field is a readable sentence", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const res = await app.request("POST", "/v1/rules", {
      key: ws.apiKey,
      body: { name: "x", expression: "email.nosuch > 1", action: "block" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/unknown identifier "email\.nosuch"\. The fields of email are address, /);
  });
});
