// The one rule for a request's origin and caller address (server/http/origin.ts): X-Forwarded-* count only when
// SERVICE_TRUST_PROXY says how many proxies set them, and the setting is checked strictly at start.
import { afterEach, describe, expect, it } from "vitest";
import { configurationProblems } from "../../server/startup/validate";
import { PEER_ADDRESS_FLAG, PEER_ADDRESS_HEADER } from "../../scripts/http-front.mjs";
import {
  clientAddress,
  PEER_ADDRESS_FLAG as READ_FLAG,
  PEER_ADDRESS_HEADER as READ_HEADER,
  requestOrigin,
} from "../../server/http/origin";

afterEach(() => {
  delete process.env.SERVICE_TRUST_PROXY;
});

const h = (init: Record<string, string>) => new Headers(init);

describe("without SERVICE_TRUST_PROXY", () => {
  it("ignores X-Forwarded-Host and -Proto: the Host header and the URL's scheme give the origin", () => {
    const headers = h({
      host: "API.example.net:8080",
      "x-forwarded-host": "evil.example",
      "x-forwarded-proto": "https",
    });
    expect(requestOrigin({ url: "http://127.0.0.1:3000/api/trpc/x", headers })).toBe("http://api.example.net:8080");
    expect(requestOrigin({ url: "https://svc.example/v1/x", headers: h({}) })).toBe("https://svc.example");
    expect(requestOrigin({ headers: h({}) })).toBeNull();
  });

  it("names no origin for a Host that is no authority, and drops a default port as a browser's Origin does", () => {
    for (const host of ["[::1", "a:b:c", "x:99999", "[::1]:65536", ":"])
      expect(requestOrigin({ url: "http://127.0.0.1:3000/v1/go/links", headers: h({ host }) }), host).toBeNull();
    expect(requestOrigin({ headers: h({ host: "[2001:DB8::1]:8080" }) })).toBe("http://[2001:db8::1]:8080");
    expect(requestOrigin({ headers: h({ host: "svc.example:80" }) })).toBe("http://svc.example");
  });

  it("ignores X-Forwarded-For: the connection's address when the caller has one, else unknown", () => {
    expect(clientAddress(h({ "x-forwarded-for": "203.0.113.9" }))).toBeNull();
    expect(clientAddress(h({ "x-forwarded-for": "203.0.113.9" }), "192.0.2.7")).toBe("192.0.2.7");
  });

  it("takes the connection's address the production server's front recorded, only in a process serving through it", () => {
    // The front writes the header and sets the flag the rule reads: one name on both sides.
    expect(READ_HEADER).toBe(PEER_ADDRESS_HEADER);
    expect(READ_FLAG).toBe(PEER_ADDRESS_FLAG);
    const flags = globalThis as Record<string, unknown>;
    const before = flags[PEER_ADDRESS_FLAG];
    try {
      // Without the front (next start, next dev) anyone could send the header: not believed.
      delete flags[PEER_ADDRESS_FLAG];
      expect(clientAddress(h({ [PEER_ADDRESS_HEADER]: "192.0.2.8" }))).toBeNull();
      flags[PEER_ADDRESS_FLAG] = true;
      expect(clientAddress(h({ [PEER_ADDRESS_HEADER]: "192.0.2.8", "x-forwarded-for": "203.0.113.9" }))).toBe(
        "192.0.2.8",
      );
      expect(clientAddress(h({ [PEER_ADDRESS_HEADER]: "::ffff:192.0.2.8" }))).toBe("192.0.2.8");
      expect(clientAddress(h({ [PEER_ADDRESS_HEADER]: "" }))).toBeNull();
    } finally {
      if (before === undefined) delete flags[PEER_ADDRESS_FLAG];
      else flags[PEER_ADDRESS_FLAG] = before;
    }
  });
});

describe("with SERVICE_TRUST_PROXY", () => {
  it("takes the address the outermost trusted proxy appended, never a forged entry to its left", () => {
    process.env.SERVICE_TRUST_PROXY = "1";
    expect(clientAddress(h({ "x-forwarded-for": "203.0.113.9" }))).toBe("203.0.113.9");
    expect(clientAddress(h({ "x-forwarded-for": "6.6.6.6, 203.0.113.9" }), "10.0.0.2")).toBe("203.0.113.9");
    expect(clientAddress(h({}), "10.0.0.2")).toBe("10.0.0.2");
    process.env.SERVICE_TRUST_PROXY = "2";
    expect(clientAddress(h({ "x-forwarded-for": "6.6.6.6, 203.0.113.9, 10.0.0.1" }))).toBe("203.0.113.9");
    expect(clientAddress(h({ "x-forwarded-for": "[2001:db8::1]:4711, 10.0.0.1" }))).toBe("2001:db8::1");
  });

  it("drops an entry that is not an IP address", () => {
    process.env.SERVICE_TRUST_PROXY = "1";
    expect(clientAddress(h({ "x-forwarded-for": "unknown" }))).toBeNull();
    expect(clientAddress(h({ "x-forwarded-for": "198.51.100.4:5123" }))).toBe("198.51.100.4");
  });

  it("honours X-Forwarded-Host and -Proto as the proxy reports them", () => {
    process.env.SERVICE_TRUST_PROXY = "1";
    const headers = h({ host: "10.0.0.5:3000", "x-forwarded-host": "svc.example.org", "x-forwarded-proto": "https" });
    expect(requestOrigin({ url: "http://10.0.0.5:3000/v1/x", headers })).toBe("https://svc.example.org");
    // A header the proxy did not set falls back to the request's own.
    expect(requestOrigin({ url: "http://10.0.0.5:3000/v1/x", headers: h({ host: "10.0.0.5:3000" }) })).toBe(
      "http://10.0.0.5:3000",
    );
  });
});

describe("the setting", () => {
  it.each(["yes", "-1", "1.5", "11"])("SERVICE_TRUST_PROXY=%s stops the start, naming the variable", (value) => {
    process.env.SERVICE_TRUST_PROXY = value;
    expect(configurationProblems().join("\n")).toMatch(
      /^SERVICE_TRUST_PROXY=.* is invalid: it must be a whole number from 0 to 10/m,
    );
  });

  it("accepts a proxy count and unset", () => {
    process.env.SERVICE_TRUST_PROXY = "2";
    expect(configurationProblems().filter((p) => p.includes("SERVICE_TRUST_PROXY"))).toEqual([]);
    delete process.env.SERVICE_TRUST_PROXY;
    expect(configurationProblems().filter((p) => p.includes("SERVICE_TRUST_PROXY"))).toEqual([]);
  });
});
