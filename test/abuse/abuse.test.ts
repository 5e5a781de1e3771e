// GET /v1/ip/{ip}/abuse and /v1/domain/{domain}/abuse against a local RDAP server: nested abuse entities, entities
// published by reference (followed on the same server only), none at all, outages, capability and cost.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { handleDashboardRequest } from "../../server/api/http/dashboard";
import { ensureUser } from "../../server/workspaces/members";
import { createWorkspace } from "../../server/workspaces/workspaces";
import { createTestApp, type TestApp } from "../harness";
import { startRdapServer, vcardEntity, type FakeRdapServer } from "../fakes/rdap-server";

let app: TestApp;
let rdap: FakeRdapServer;

const arinStyle = {
  objectClassName: "ip network",
  handle: "NET-8-8-8-0-2",
  name: "GOGL",
  startAddress: "8.8.8.0",
  endAddress: "8.8.8.255",
  entities: [
    vcardEntity({
      handle: "GOGL",
      roles: ["registrant"],
      fn: "Google LLC",
      country: "US",
      entities: [
        vcardEntity({
          handle: "ABUSE5250-ARIN",
          roles: ["abuse"],
          fn: "Abuse",
          email: "network-abuse@google.com",
          tel: "+1-650-253-0000",
        }),
      ],
    }),
  ],
};

const ripeStyle = (selfHref: string) => ({
  objectClassName: "ip network",
  handle: "193.0.0.0 - 193.0.7.255",
  name: "RIPE-NCC",
  country: "NL",
  startAddress: "193.0.0.0",
  endAddress: "193.0.7.255",
  entities: [
    vcardEntity({
      handle: "ORG-RIEN1-RIPE",
      roles: ["registrant"],
      fn: "Reseaux IP Europeens Network Coordination Centre",
    }),
    { objectClassName: "entity", handle: "AB-RIPE", roles: ["abuse"], links: [{ rel: "self", href: selfHref }] },
  ],
});

const domainBody = {
  objectClassName: "domain",
  ldhName: "EXAMPLE.COM",
  entities: [
    vcardEntity({
      handle: "R1",
      roles: ["registrant"],
      fn: "Someone",
      entities: [vcardEntity({ handle: "X", roles: ["abuse"], fn: "Registrant abuse", email: "not-this@example.com" })],
    }),
    {
      ...vcardEntity({ handle: "376", roles: ["registrar"], fn: "Example Registrar, Inc." }),
      publicIds: [{ type: "IANA Registrar ID", identifier: "376" }],
      entities: [
        vcardEntity({ handle: "", roles: ["abuse"], fn: "", email: "abuse@registrar.example", tel: "+1.3108239358" }),
      ],
    },
  ],
};

beforeAll(async () => {
  app = await createTestApp();
  rdap = await startRdapServer({
    "ip/8.8.8.8": arinStyle,
    "entity/AB-RIPE": vcardEntity({
      handle: "AB-RIPE",
      roles: ["abuse"],
      fn: "Abuse contact",
      email: "abuse@ripe.net",
    }),
    "ip/1.1.1.1": {
      objectClassName: "ip network",
      handle: "APNIC-LABS",
      name: "APNIC-LABS",
      entities: [vcardEntity({ handle: "IRT", roles: ["technical"], fn: "Tech", email: "tech@apnic.net" })],
    },
    "domain/example.com": domainBody,
    "domain/bare.com": { objectClassName: "domain", ldhName: "BARE.COM", entities: [] },
  });
  rdap.set("ip/193.0.6.139", ripeStyle(`${rdap.url}entity/AB-RIPE`));
  rdap.set("ip/193.0.0.1", ripeStyle("https://evil.example/entity/AB-RIPE"));
});
afterAll(() => rdap.close());
beforeEach(() => {
  process.env.SERVICE_RDAP_BASE_URL = rdap.url;
  rdap.failWith(null);
});

describe("IP abuse contacts", () => {
  it("finds the abuse entity nested in the registrant (ARIN)", async () => {
    const ws = await app.seedWorkspace();
    const res = await app.request("GET", "/v1/ip/8.8.8.8/abuse", { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ip: "8.8.8.8",
      abuse: { email: "network-abuse@google.com", phone: "+1-650-253-0000", name: "Abuse", handle: "ABUSE5250-ARIN" },
      reason: null,
      network: { handle: "NET-8-8-8-0-2", name: "GOGL", country: "US", organization: "Google LLC" },
      followed_links: [],
      source: { rdap_server: rdap.url, url: `${rdap.url}ip/8.8.8.8` },
    });
    expect(res.headers.get("x-service-quota-used")).toBe("1");
  });

  it("follows the self link of an abuse entity published by reference (RIPE)", async () => {
    const ws = await app.seedWorkspace();
    const res = await app.request("GET", "/v1/ip/193.0.6.139/abuse", { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.abuse).toEqual({ name: "Abuse contact", email: "abuse@ripe.net", phone: null, handle: "AB-RIPE" });
    expect(res.body.followed_links).toEqual([`${rdap.url}entity/AB-RIPE`]);
  });

  it("never follows a link to another server: the handle is looked up on the answering server instead", async () => {
    const before = rdap.requests.length;
    const ws = await app.seedWorkspace();
    const res = await app.request("GET", "/v1/ip/193.0.0.1/abuse", { key: ws.apiKey });
    expect(res.body.abuse.email).toBe("abuse@ripe.net");
    expect(res.body.followed_links).toEqual([`${rdap.url}entity/AB-RIPE`]);
    expect(rdap.requests.slice(before)).toEqual(["ip/193.0.0.1", "entity/AB-RIPE"]);
  });

  it("answers null with a reason when the registry publishes no abuse entity", async () => {
    const ws = await app.seedWorkspace();
    const res = await app.request("GET", "/v1/ip/1.1.1.1/abuse", { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      abuse: null,
      reason: "The registry publishes no entity with the abuse role for this object.",
    });
  });

  it("private space is 404 NOT_FOUND, decided from the request and free; a registry outage is 503 and its unit given back", async () => {
    const ws = await app.seedWorkspace();
    const priv = await app.request("GET", "/v1/ip/10.1.2.3/abuse", { key: ws.apiKey });
    expect(priv.status).toBe(404);
    expect(priv.body.error.code).toBe("NOT_FOUND");
    rdap.failWith(500);
    const down = await app.request("GET", "/v1/ip/8.8.8.8/abuse", { key: ws.apiKey });
    expect(down.status).toBe(503);
    expect(down.body.error.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(await app.used(ws.workspaceId)).toBe(0);
  });
});

describe("domain abuse contacts", () => {
  it("prefers the registrar's nested abuse contact and names the registrar", async () => {
    const ws = await app.seedWorkspace();
    const res = await app.request("GET", "/v1/domain/www.example.com/abuse", { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      domain: "example.com",
      abuse: { email: "abuse@registrar.example", phone: "+1.3108239358" },
      registrar: { name: "Example Registrar, Inc.", iana_id: "376" },
      reason: null,
    });
  });

  it("null with a reason when there is none; 404 DOMAIN_NOT_FOUND for an unregistered name", async () => {
    const ws = await app.seedWorkspace();
    const bare = await app.request("GET", "/v1/domain/bare.com/abuse", { key: ws.apiKey });
    expect(bare.body).toMatchObject({
      abuse: null,
      registrar: null,
      reason: expect.stringContaining("no entity with the abuse role"),
    });
    const missing = await app.request("GET", "/v1/domain/unregistered.com/abuse", { key: ws.apiKey });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("DOMAIN_NOT_FOUND");
  });
});

describe("capability and cost", () => {
  it.each(["/v1/ip/8.8.8.8/abuse", "/v1/domain/example.com/abuse"])(
    "%s: Free is 403 CAPABILITY_REQUIRED at no cost, a Suite plan pays 1 unit",
    async (path) => {
      const free = await app.seedWorkspace({ plans: ["free"] });
      const denied = await app.request("GET", path, { key: free.apiKey });
      expect(denied.status).toBe(403);
      expect(denied.body.error.code).toBe("CAPABILITY_REQUIRED");
      expect(await app.used(free.workspaceId)).toBe(0);
      const paid = await app.seedWorkspace({ plans: ["suite_starter"] });
      expect((await app.request("GET", path, { key: paid.apiKey })).status).toBe(200);
      expect(await app.used(paid.workspaceId)).toBe(1);
      expect(await app.ledgerCount(paid.workspaceId)).toBe(1);
    },
  );

  it.each([
    ["abuse.ipAbuse", { ip: "8.8.8.8" }, { ip: "8.8.8.8", abuse: { email: "network-abuse@google.com" } }],
    ["abuse.domainAbuse", { domain: "example.com" }, { abuse: { email: "abuse@registrar.example" } }],
  ] as const)(
    "the dashboard's tRPC endpoint runs %s with the same capability and cost",
    async (procedure, input, want) => {
      const user = await ensureUser(app.db, { email: `${procedure}-dashboard@example.test` });
      const free = await createWorkspace(app.db, {
        name: "free",
        plans: ["free"],
        ownerEmail: user.email,
        ownerUserId: user.id,
      });
      const paid = await createWorkspace(app.db, {
        name: "paid",
        plans: ["suite_starter"],
        ownerEmail: user.email,
        ownerUserId: user.id,
      });
      // Queries travel as GET with the input in the query string, as the dashboard's tRPC client sends them.
      const call = (workspaceId: string) =>
        handleDashboardRequest(
          new Request(
            `http://127.0.0.1:3000/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`,
            {
              headers: { "sec-fetch-site": "same-origin", "x-service-workspace": workspaceId },
            },
          ),
          async () => ({ userId: user.id, email: user.email, name: null }),
        );
      const denied = await call(free.workspaceId);
      expect(denied.status).toBe(403);
      expect(((await denied.json()) as any).error.data.appCode).toBe("CAPABILITY_REQUIRED");
      expect(await app.used(free.workspaceId)).toBe(0);
      expect(await app.ledgerCount(free.workspaceId)).toBe(0);
      const ok = await call(paid.workspaceId);
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as any).result.data).toMatchObject(want);
      expect(await app.used(paid.workspaceId)).toBe(1);
      expect(await app.ledgerCount(paid.workspaceId)).toBe(1);
    },
  );

  it("bad input is 400 INVALID_REQUEST at no cost", async () => {
    const ws = await app.seedWorkspace();
    for (const path of ["/v1/ip/999.1.1.1/abuse", "/v1/domain/not_a_domain/abuse"]) {
      const res = await app.request("GET", path, { key: ws.apiKey });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("INVALID_REQUEST");
    }
    expect(await app.used(ws.workspaceId)).toBe(0);
  });
});
