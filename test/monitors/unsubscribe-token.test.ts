// An unsubscribe token has one spelling: its signature is compared as the canonical base64url text, not as the
// bytes a lenient decoder makes of it. Changed unused bits of the last character, padding, characters outside the
// alphabet (Node's decoder skips them) and the "+/" alphabet all decode to the same signature bytes, and each is
// 400 INVALID_REQUEST that unsubscribes nobody. Both stores: DATABASE_URL selects PostgreSQL.
import { describe, expect, it } from "vitest";
import { unsubscribeToken } from "../../server/monitors/mailer/unsubscribe";
import { createTestApp } from "../harness";
import { A, api, monitorDns } from "./helpers";

const app = await createTestApp();
await monitorDns({ "shop.test": A() });

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** A signed token for the monitor whose signature holds "-" or "_" (so the "+/" spelling differs from it). */
function tokenWithUrlSafeCharacters(monitorId: string): { token: string; email: string } {
  for (let i = 0; ; i++) {
    const email = `person${i}@corp.test`;
    const token = unsubscribeToken(monitorId, email);
    if (/[-_]/.test(token.split(".")[2]!)) return { token, email };
  }
}

/** The token with its signature (third part) rewritten. */
const withSignature = (token: string, f: (sig: string) => string) => {
  const [payload, keyId, sig] = token.split(".");
  return `${payload}.${keyId}.${f(sig!)}`;
};

/** The last character with its two unused low bits changed: the same 32 bytes once decoded. */
const otherUnusedBits = (sig: string) => {
  const last = ALPHABET.indexOf(sig.at(-1)!);
  return sig.slice(0, -1) + ALPHABET[last ^ 1]!;
};

const SPELLINGS: [string, (sig: string) => string][] = [
  ["changed unused bits in the last character", otherUnusedBits],
  ["a trailing =", (s) => `${s}=`],
  ["a trailing ==", (s) => `${s}==`],
  ["an inserted !", (s) => `${s.slice(0, 10)}!${s.slice(10)}`],
  ["an inserted space", (s) => `${s.slice(0, 10)} ${s.slice(10)}`],
  ["the +/ alphabet", (s) => s.replace(/-/g, "+").replace(/_/g, "/")],
  ["a trailing space", (s) => `${s} `],
];

describe("unsubscribe token spellings", () => {
  it.each(SPELLINGS)("a signature with %s is 400 and unsubscribes nobody", async (_, respell) => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const monitor = (
      await api(app, ws.apiKey)("POST", "/v1/monitors", {
        name: "Shop",
        target: "shop.test",
        checks: ["blocklists"],
        interval: "1h",
      })
    ).body;
    const { token, email } = tokenWithUrlSafeCharacters(monitor.id);
    const changed = withSignature(token, respell);
    expect(changed).not.toBe(token);
    // The lenient decoder reads the same signature bytes from both spellings: only the text tells them apart.
    expect(Buffer.from(changed.split(".")[2]!, "base64url")).toEqual(Buffer.from(token.split(".")[2]!, "base64url"));

    const path = (t: string) => `/v1/monitors/emails/unsubscribe?token=${encodeURIComponent(t)}`;
    const get = await app.request("GET", path(changed));
    expect(get.status).toBe(400);
    expect(get.body.error.code).toBe("INVALID_REQUEST");
    const post = await app.request("POST", path(changed), {
      body: "List-Unsubscribe=One-Click",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(post.status).toBe(400);
    expect(post.body.error.code).toBe("INVALID_REQUEST");
    const read = (await api(app, ws.apiKey)("GET", `/v1/monitors/${monitor.id}`)).body;
    expect(read.email_alerts.unsubscribed).toEqual([]);

    // The canonical spelling still works.
    const ok = await app.request("GET", path(token));
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ monitor_id: monitor.id, email, unsubscribed: true });
  });

  it("a token with a space before it is 400 and unsubscribes nobody", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const monitor = (
      await api(app, ws.apiKey)("POST", "/v1/monitors", {
        name: "Shop",
        target: "shop.test",
        checks: ["blocklists"],
        interval: "1h",
      })
    ).body;
    const { token } = tokenWithUrlSafeCharacters(monitor.id);
    const get = await app.request("GET", `/v1/monitors/emails/unsubscribe?token=${encodeURIComponent(` ${token}`)}`);
    expect(get.status).toBe(400);
    expect(get.body.error.code).toBe("INVALID_REQUEST");
    const read = (await api(app, ws.apiKey)("GET", `/v1/monitors/${monitor.id}`)).body;
    expect(read.email_alerts.unsubscribed).toEqual([]);
  });
});
