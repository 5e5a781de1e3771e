// What a 404 costs, said one way (issue 42, item 5), and one domain parser for every domain route. The rule (DESIGN
// "Charging", the spec's "units are reserved before provider work"): a 404 decided from the request alone is free; a
// source's "not found" after admission is its answer and counts one unit, on every route alike. An address spelling
// in a domain path (0x10, which a URL parser reads as 0.0.0.16) is 400 on every /domain/{domain} route, no unit.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getOpenApiDocument } from "../../server/api/rest/openapi";
import { startRdapServer, type FakeRdapServer } from "../fakes/rdap-server";
import { createTestApp } from "../harness";
import { useFakePackageSources } from "../vulnerabilities/fake-sources";

useFakePackageSources();
const app = await createTestApp();
let rdap: FakeRdapServer;
beforeAll(async () => {
  rdap = await startRdapServer({ "domain/example.org": { objectClassName: "domain", ldhName: "EXAMPLE.ORG" } });
  process.env.SERVICE_RDAP_BASE_URL = rdap.url;
});
afterAll(async () => {
  delete process.env.SERVICE_RDAP_BASE_URL;
  await rdap.close();
});

const doc = getOpenApiDocument() as { info: { description: string }; paths: Record<string, Record<string, any>> };
/** Every route that takes a domain in its path, read from the document (a new one is covered without listing it). */
const DOMAIN_ROUTES = Object.keys(doc.paths).filter((p) => p.startsWith("/domain/{domain}"));

describe("one domain parser for every domain route", () => {
  it("covers the domain routes of the document", () => {
    expect(DOMAIN_ROUTES.sort()).toEqual([
      "/domain/{domain}",
      "/domain/{domain}/abuse",
      "/domain/{domain}/infrastructure",
      "/domain/{domain}/rdap",
      "/domain/{domain}/subdomains",
    ]);
  });

  const spellings = ["0x10", "0x10.", "1.2.3.4", "127.1", "0x7f.0.0.1", "%EF%BC%90%EF%BD%98%EF%BC%91%EF%BC%90"];
  it.each(DOMAIN_ROUTES.flatMap((route) => spellings.map((s) => ({ route, s }))))(
    "GET $route with $s is 400 INVALID_REQUEST and free",
    async ({ route, s }) => {
      const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
      rdap.requests.length = 0;
      const res = await app.request("GET", `/v1${route.replace("{domain}", s)}`, { key: ws.apiKey });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("INVALID_REQUEST");
      expect(await app.used(ws.workspaceId)).toBe(0);
      expect(await app.ledgerCount(ws.workspaceId)).toBe(0);
      expect(rdap.requests).toEqual([]);
    },
  );

  // An "xn--" label that is not punycode ("xn--zz") names no domain: RDAP and abuse answered 404 "not a valid domain
  // name" or "not a registrable domain" and charged one unit, the other routes asked DNS and charged too.
  it.each(DOMAIN_ROUTES.flatMap((route) => ["xn--zz.com", "www.xn--a.org"].map((s) => ({ route, s }))))(
    "GET $route with the broken A-label $s is 400 INVALID_REQUEST and free",
    async ({ route, s }) => {
      const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
      rdap.requests.length = 0;
      const res = await app.request("GET", `/v1${route.replace("{domain}", s)}`, { key: ws.apiKey });
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({ code: "INVALID_REQUEST", message: expect.stringContaining("punycode") });
      expect(await app.used(ws.workspaceId)).toBe(0);
      expect(await app.ledgerCount(ws.workspaceId)).toBe(0);
      expect(rdap.requests).toEqual([]);
    },
  );

  it("the RDAP and abuse routes read a name as /domain/{domain} does (registrable domain, ASCII form)", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    rdap.requests.length = 0;
    const res = await app.request("GET", "/v1/domain/WWW.Example.ORG./rdap", { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(rdap.requests).toEqual(["domain/example.org"]);
    // A public suffix alone is refused by all of them, with the same reason.
    const messages = await Promise.all(
      ["", "/rdap", "/abuse", "/subdomains"].map(async (tail) => {
        const r = await app.request("GET", `/v1/domain/co.uk${tail}`, { key: ws.apiKey });
        expect(r.status).toBe(400);
        return r.body.error.message;
      }),
    );
    expect(new Set(messages).size).toBe(1);
  });
});

describe("what a 404 costs", () => {
  it.each([
    ["/v1/vulnerabilities/npm/does-not-exist/", "PACKAGE_NOT_FOUND"],
    ["/v1/vulnerabilities/packages/npm/does-not-exist/", "PACKAGE_NOT_FOUND"],
    ["/v1/vulnerabilities/packages/npm/jquery/?version=9.9.9", "VERSION_NOT_FOUND"],
    ["/v1/domain/unregistered.org/rdap", "DOMAIN_NOT_FOUND"],
    ["/v1/domain/unregistered.org/abuse", "DOMAIN_NOT_FOUND"],
  ])("a source's not found after admission counts one unit: %s is 404 %s", async (path, code) => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const res = await app.request("GET", path, { key: ws.apiKey });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe(code);
    expect(await app.used(ws.workspaceId)).toBe(1);
    expect((await app.db.usageLedger.findMany({ where: { workspaceId: ws.workspaceId } })).map((l) => l.units)).toEqual(
      [1],
    );
  });

  it("a 404 decided from the request alone is free", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const res = await app.request("GET", "/v1/domain/foo.invalid/rdap", { key: ws.apiKey });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("DOMAIN_NOT_FOUND");
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it("the document says the same rule in its summary and on every metered operation", () => {
    const info = doc.info.description;
    expect(info).not.toMatch(/404, 429\) consumes nothing/);
    expect(info).toContain('a source\'s "not found" (404');
    expect(info).toContain("is an answer");
    expect(info).toContain("a 503 `UPSTREAM_UNAVAILABLE` gives back all its units");
    let metered = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        // A metered lookup's access sentence has its **Free:** part (contract-text.ts); bulk jobs charge otherwise.
        if (method === "parameters" || !String(op.description).includes("**Free:**")) continue;
        metered++;
        const text = op.description as string;
        expect(text, `${method} ${path}`).toContain("a 404 (the source found nothing) included");
        expect(text, `${method} ${path}`).toContain(
          "a 503 UPSTREAM_UNAVAILABLE (no source could answer) gives its units back",
        );
        // No route's own prose says a 503 still counts, or that a looked-up 404 is free.
        expect(text, `${method} ${path}`).not.toMatch(/503 [^.;]*\((the )?units? (still )?counts?\)|still count/);
      }
    }
    expect(metered).toBeGreaterThan(25);
  });
});
