// A rule's CIDR is read by the one CIDR parser when it is saved and when it is evaluated: white space and host
// bits are normalised on save, and the rule matches (it used to be saved as " 203.0.113.0/24" and never match).
import { beforeAll, describe, expect, it } from "vitest";
import { ipInCidr } from "../../server/net/ip";
import { formatCidr, parseCidr } from "../../server/net/ip-parse";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

describe("a rule's CIDR condition", () => {
  it("is saved in canonical form and blocks an assessment from inside the range", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const rule = {
      name: "test range",
      action: "block",
      conditions: [{ field: "ip", op: "cidr", value: " 203.0.113.9/24 " }],
    };
    const saved = await app.request("POST", "/v1/rules", { key: ws.apiKey, body: rule });
    expect(saved.status).toBe(200);
    expect(saved.body.conditions).toEqual([{ field: "ip", op: "cidr", value: "203.0.113.0/24" }]);

    const listed = await app.request("POST", "/v1/rules", {
      key: ws.apiKey,
      body: {
        ...rule,
        name: "list",
        conditions: [{ field: "ip", op: "cidr", value: ["2001:DB8::1/32", "198.51.100.7/32"] }],
      },
    });
    expect(listed.body.conditions[0].value).toEqual(["2001:db8::/32", "198.51.100.7/32"]);

    const res = await app.request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "signup", ip: "203.0.113.9" },
    });
    expect(res.status).toBe(200);
    expect(res.body.decision).toBe("block");
  });
});

describe("the one CIDR parser", () => {
  it.each([
    [" 203.0.113.0/24", "203.0.113.9", true],
    ["203.0.113.0/24 ", "203.0.114.1", false],
    ["10.1.2.3/8", "10.200.0.1", true],
    ["2001:db8::/32", "2001:db8:ffff::1", true],
    ["2001:db8::/32", "203.0.113.9", false],
    ["203.0.113.0/024", "203.0.113.9", false],
    ["203.0.113.0/33", "203.0.113.9", false],
    ["203.0.113.0", "203.0.113.0", false],
  ])("ipInCidr(%s) for %s is %s", (cidr, address, expected) => {
    expect(ipInCidr(address, cidr)).toBe(expected);
  });

  it("formats ranges canonically", () => {
    expect(formatCidr(parseCidr(" 203.0.113.77/26")!)).toBe("203.0.113.64/26");
    expect(formatCidr(parseCidr("2001:0DB8:0000::5/48")!)).toBe("2001:db8::/48");
    expect(parseCidr("203.0.113.0/24/1")).toBeNull();
  });
});
