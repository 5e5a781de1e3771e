// A rule expression written by hand compares ip.address with an address literal; ip.address is the canonical form
// (an IPv4-mapped client, ::ffff:a.b.c.d, is its IPv4 address). The literal is read the same way when the rule is
// compiled, as a builder condition's value is when it is saved, so the rule matches the client it names.
import { describe, expect, it } from "vitest";
import { CHROME_UA, useAssessmentApp } from "../assessment/setup";

const { app } = useAssessmentApp();

async function blockRule(key: string, expression: string) {
  const res = await app().request("POST", "/v1/rules", { key, body: { name: "by hand", action: "block", expression } });
  expect(res.status).toBe(200);
  expect(res.body.expression).toBe(expression);
}

const decision = async (key: string, ip: string) => {
  const res = await app().request("POST", "/v1/assess", { key, body: { event: "login", ip, user_agent: CHROME_UA } });
  expect(res.status).toBe(200);
  return res.body.decision as string;
};

describe("an address literal in a rule expression", () => {
  it.each([
    ['ip.address == "::ffff:8.8.4.4"', "8.8.4.4", "8.8.8.8"],
    ['"::FFFF:8.8.4.4" == ip.address', "::ffff:8.8.4.4", "8.8.8.8"],
    ['ip.address in ["0:0:0:0:0:ffff:808:404", "192.0.2.1"]', "8.8.4.4", "8.8.8.8"],
    ['ip.address == "2001:4860:4860:0:0:0:0:8888"', "2001:4860:4860::8888", "2001:4860:4860::8844"],
    ['!(ip.address != "::ffff:8.8.4.4")', "8.8.4.4", "8.8.8.8"],
  ])("%s matches %s and not %s", async (expression, matching, other) => {
    const ws = await app().seedWorkspace();
    await blockRule(ws.apiKey, expression);
    expect(await decision(ws.apiKey, matching)).toBe("block");
    expect(await decision(ws.apiKey, other)).not.toBe("block");
  });

  it("is left as written where it is not compared with the address", async () => {
    const ws = await app().seedWorkspace();
    await blockRule(ws.apiKey, 'user_agent == "::ffff:8.8.4.4"');
    const res = await app().request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "login", ip: "8.8.8.8", user_agent: "::ffff:8.8.4.4" },
    });
    expect(res.body.decision).toBe("block");
  });
});
