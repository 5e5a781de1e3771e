// The dashboard's IP answer card says each anonymiser class in words (issue 43): who, on what basis, how sure, which
// list of which date; a home connection shows no class line.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { ClassLines } from "../../app/dashboard/_components/answers/IpCards";
import { warmIpFeeds } from "../../server/ip/reputation";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
  await warmIpFeeds();
}, 180_000);

async function card(ip: string): Promise<string> {
  const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
  const res = await app.request("GET", `/v1/ip/${ip}`, { key: ws.apiKey });
  expect(res.status).toBe(200);
  // The class lines of the card (the whole card needs the dashboard's tRPC provider for its abuse-contact button).
  const html = renderToStaticMarkup(createElement(ClassLines, { classes: res.body.privacy.classes }));
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ");
}

describe("IP card", () => {
  it("names a VPN network's operator, basis, confidence, list and date, and its hosting", async () => {
    const text = await card("2.56.16.5");
    expect(text).toContain(
      "VPN : M247 (NordVPN), from a network known to carry VPN exits (medium confidence); X4BNet lists_vpn VPN ranges, list of 2026-08-22",
    );
    expect(text).toMatch(
      /Hosting : M247, from a hosting company's network \(AS\) \(high confidence\); curated hosting ASN list/,
    );
  });

  it("names a provider's exit and a scanner's organisation; a home connection has no class line", async () => {
    expect(await card("23.144.160.67")).toContain(
      "VPN : Mullvad VPN, from the provider's own list of its exits (high confidence); Mullvad server list (X4BNet lists_vpn), list of 2026-08-22",
    );
    const scanner = await card("162.142.125.1");
    expect(scanner).toContain("Internet scanner : Censys, from a list of the scanner's addresses (high confidence)");
    const home = await card("73.162.1.1");
    expect(home).not.toMatch(/confidence/);
  });
});
