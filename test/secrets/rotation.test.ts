// Encryption at rest in the running service: envelopes bound to their row, plaintext rows encrypted at start-up,
// `secrets rotate` with SERVICE_ENCRYPTION_KEY (previous keys in SERVICE_ENCRYPTION_KEYS) and with the generated key
// file, deliveries signed with the opened secret, and production refusing to start without the key.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runAdminCommand } from "../../server/admin/commands";
import { newId } from "../../server/ids";
import { openSecret, SecretUnreadableError } from "../../server/secrets/envelope";
import { keyIdOf, reloadKeyring } from "../../server/secrets/keyring";
import { prepareStoredSecrets } from "../../server/secrets/startup";
import { encryptPlaintextSecrets, openWebhookSecret, secretsStatus } from "../../server/secrets/stored-secrets";
import { signPayload } from "../../server/webhooks/signing";
import { runWebhookDeliveriesOnce } from "../../server/webhooks/worker";
import { enqueueHighRiskAssessment } from "../../server/webhooks/enqueue";
import { startWebhookReceiver, type WebhookReceiver } from "../fakes/webhook-receiver";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
let rx: WebhookReceiver;
const saved = { ...process.env };
const ENV_KEYS = ["SERVICE_ENCRYPTION_KEY", "SERVICE_ENCRYPTION_KEYS", "SERVICE_ENV", "SERVICE_DATA_DIR"] as const;
beforeAll(async () => {
  process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1";
  app = await createTestApp();
  rx = await startWebhookReceiver();
});
afterEach(() => {
  for (const k of ENV_KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  reloadKeyring();
});
afterAll(async () => {
  await rx.close();
  process.env = saved;
});

const newKey = () => randomBytes(32).toString("base64");
const useKeys = (current: string, previous: string[] = []) => {
  process.env.SERVICE_ENCRYPTION_KEY = current;
  process.env.SERVICE_ENCRYPTION_KEYS = previous.join(",");
  reloadKeyring();
};

async function webhook() {
  const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
  const res = await app.request("POST", "/v1/webhooks", {
    key: ws.apiKey,
    body: { name: "h", url: rx.url, event_types: ["high_risk_assessment"] },
  });
  expect(res.status).toBe(200);
  const row = await app.db.webhook.findUniqueOrThrow({ where: { id: res.body.id } });
  return { ws, id: res.body.id as string, secret: res.body.secret as string, row };
}

describe("stored webhook secrets", () => {
  it("are AES-256-GCM envelopes under the current key id, bound to their row", async () => {
    const key = newKey();
    useKeys(key);
    const { id, secret, row } = await webhook();
    expect(row.secret).toMatch(
      new RegExp(`^enc:v1:${keyIdOf(Buffer.from(key, "base64"))}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$`),
    );
    expect(row.secret).not.toContain(secret.slice(6));
    expect(openWebhookSecret(row)).toBe(secret);
    // Copied into another row, the envelope does not open (the row id is authenticated data).
    expect(() => openSecret(row.secret, `webhook:${newId("wh")}`)).toThrow(SecretUnreadableError);
    expect(() => openSecret(row.secret.slice(0, -2) + "AA", `webhook:${id}`)).toThrow(SecretUnreadableError);
  });

  it("sign deliveries with the secret shown at creation", async () => {
    useKeys(newKey());
    const { ws, secret } = await webhook();
    rx.received.length = 0;
    await enqueueHighRiskAssessment(app.db, {
      workspaceId: ws.workspaceId,
      requestId: "req_signed",
      payload: { risk_level: "critical" },
    });
    const summary = await runWebhookDeliveriesOnce(app.db, new Date(Date.now() + 1000));
    expect(summary.delivered).toBeGreaterThanOrEqual(1);
    const got = rx.received.find((r) => JSON.parse(r.body).request_id === "req_signed")!;
    const h = got.headers;
    expect(h["webhook-signature"]).toBe(
      signPayload(secret, String(h["webhook-id"]), Number(h["webhook-timestamp"]), got.body),
    );
  });

  it("that this instance cannot open fail the attempt with a clear error and back off, then sign once the key is back", async () => {
    const lost = newKey();
    useKeys(lost);
    const { ws, id, secret } = await webhook();
    await enqueueHighRiskAssessment(app.db, {
      workspaceId: ws.workspaceId,
      requestId: "req_unreadable",
      payload: { risk_level: "critical" },
    });
    useKeys(newKey()); // the key that sealed the secret is gone
    rx.received.length = 0;
    await runWebhookDeliveriesOnce(app.db, new Date(Date.now() + 1000));
    const d = await app.db.webhookDelivery.findFirstOrThrow({ where: { webhookId: id, requestId: "req_unreadable" } });
    expect(d).toMatchObject({ status: "pending", attempts: 1, lastStatus: null });
    expect(d.lastError).toMatch(/signing secret could not be decrypted/);
    expect(d.lastError).not.toContain(secret);
    expect(d.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());
    expect(rx.received.some((r) => JSON.parse(r.body).request_id === "req_unreadable")).toBe(false);

    useKeys(newKey(), [lost]); // the operator restores the old key as a previous one
    await runWebhookDeliveriesOnce(app.db, new Date(d.nextAttemptAt!.getTime() + 1000));
    const after = await app.db.webhookDelivery.findUniqueOrThrow({ where: { id: d.id } });
    expect(after).toMatchObject({ status: "delivered", attempts: 2 });
    expect(rx.received.some((r) => JSON.parse(r.body).request_id === "req_unreadable")).toBe(true);
  });

  it("stored in plain text before encryption existed are encrypted at start-up", async () => {
    useKeys(newKey());
    const { ws } = await webhook();
    const plain = `whsec_${randomBytes(24).toString("base64")}`;
    const id = newId("wh");
    await app.db.webhook.create({
      data: {
        id,
        workspaceId: ws.workspaceId,
        name: "legacy",
        url: rx.url,
        eventTypes: ["high_risk_assessment"],
        secret: plain,
      },
    });
    expect(openWebhookSecret({ id, secret: plain })).toBe(plain); // usable until then

    await prepareStoredSecrets(app.db);
    const row = await app.db.webhook.findUniqueOrThrow({ where: { id } });
    expect(row.secret.startsWith("enc:v1:")).toBe(true);
    expect(openWebhookSecret(row)).toBe(plain);
    expect(await encryptPlaintextSecrets(app.db)).toBe(0);
    expect((await secretsStatus(app.db)).byKey.plaintext).toBeUndefined();
  });
});

describe("npm run admin -- secrets rotate", () => {
  it("with SERVICE_ENCRYPTION_KEY re-encrypts every secret under the new key; the old one stays readable until then", async () => {
    const oldKey = newKey();
    useKeys(oldKey);
    const a = await webhook();
    const b = await webhook();
    const oldId = keyIdOf(Buffer.from(oldKey, "base64"));

    const fresh = newKey();
    const freshId = keyIdOf(Buffer.from(fresh, "base64"));
    // Without the previous key, its secrets cannot be opened and status names the missing key.
    useKeys(fresh);
    expect((await secretsStatus(app.db)).unknownKeys).toContain(oldId);
    expect(() => openWebhookSecret(a.row)).toThrow(/SERVICE_ENCRYPTION_KEY/);

    useKeys(fresh, [oldKey]);
    expect(openWebhookSecret(a.row)).toBe(a.secret);
    const rotated = await runAdminCommand(app.db, ["secrets", "rotate", "--json"]);
    expect(rotated.result).toMatchObject({ keyId: freshId, generated: false });
    expect((rotated.result as { reencrypted: number }).reencrypted).toBeGreaterThanOrEqual(2);
    expect(rotated.text).not.toContain(oldKey);
    expect(rotated.text).not.toContain(fresh);

    // The previous key can now be dropped: everything opens under the new key alone.
    useKeys(fresh);
    const status = await runAdminCommand(app.db, ["secrets", "status"]);
    expect((status.result as { byKey: Record<string, number>; unknownKeys: string[] }).byKey[oldId]).toBeUndefined();
    expect((status.result as { unknownKeys: string[] }).unknownKeys).not.toContain(oldId);
    for (const w of [a, b]) {
      const row = await app.db.webhook.findUniqueOrThrow({ where: { id: w.id } });
      expect(row.secret.startsWith(`enc:v1:${freshId}:`)).toBe(true);
      expect(openWebhookSecret(row)).toBe(w.secret);
    }
    // Nothing left to do on a second run.
    expect((await runAdminCommand(app.db, ["secrets", "rotate"])).result).toMatchObject({ reencrypted: 0 });
  });

  it("with the generated key file adds a new current key, keeps the old one readable, and re-encrypts", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "svc-keys-"));
    try {
      delete process.env.SERVICE_ENCRYPTION_KEY;
      delete process.env.SERVICE_ENCRYPTION_KEYS;
      process.env.SERVICE_DATA_DIR = dir; // the open database stays where it is; only the key file moves here
      const first = reloadKeyring();
      expect(first.source).toBe("file");
      const file = path.join(dir, "encryption-keys");
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const w = await webhook();
      expect(w.row.secret.startsWith(`enc:v1:${first.current.id}:`)).toBe(true);

      const r = await runAdminCommand(app.db, ["secrets", "rotate"]);
      const now = reloadKeyring();
      expect(r.result).toMatchObject({ keyId: now.current.id, generated: true });
      expect(now.current.id).not.toBe(first.current.id);
      expect(now.byId.has(first.current.id)).toBe(true);
      expect(
        readFileSync(file, "utf8")
          .split("\n")
          .filter((l) => l && !l.startsWith("#")),
      ).toHaveLength(2);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const row = await app.db.webhook.findUniqueOrThrow({ where: { id: w.id } });
      expect(row.secret.startsWith(`enc:v1:${now.current.id}:`)).toBe(true);
      expect(openWebhookSecret(row)).toBe(w.secret);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("start-up", () => {
  it("fails in production without SERVICE_ENCRYPTION_KEY, naming the variable", async () => {
    delete process.env.SERVICE_ENCRYPTION_KEY;
    process.env.SERVICE_ENV = "production";
    process.env.SERVICE_NPM_REGISTRY_URL ??= "http://127.0.0.1:9/"; // skip asking npm for its setting
    const { startServer } = await import("../../server/startup/index");
    await expect(startServer()).rejects.toThrow(/SERVICE_ENCRYPTION_KEY is required in production/);
  });

  it("fails on a key that is not base64 of 32 bytes, naming the variable", async () => {
    process.env.SERVICE_ENCRYPTION_KEY = Buffer.alloc(16).toString("base64");
    expect(() => reloadKeyring()).toThrow(/SERVICE_ENCRYPTION_KEY must be base64 of 32 random bytes/);
    process.env.SERVICE_ENCRYPTION_KEY = newKey();
    process.env.SERVICE_ENCRYPTION_KEYS = "not a key";
    expect(() => reloadKeyring()).toThrow(/SERVICE_ENCRYPTION_KEYS must be base64/);
  });
});
