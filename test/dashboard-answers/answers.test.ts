// The dashboard's answer layer against the real contract: every lookup kind with a summary card is recognised from
// an answer built from its published response schema and from real answers of the REST API; yes/no fields take
// their colour from their meaning; operator instructions never reach a user view; the console's catalog offers
// each public lookup once, with a label and an example for every input, and a curl command with $KEY.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { answerKind } from "../../app/dashboard/_components/LookupAnswer";
import { Prose } from "../../app/dashboard/_components/answers/parts";
import { meaningOf } from "../../app/dashboard/_components/answers/meaning";
import { forUsers, forUsersDeep } from "../../app/dashboard/_components/answers/user-text";
import { lookupCatalog } from "../../app/dashboard/console/catalog";
import { curlCommand } from "../../app/dashboard/console/curl";
import { fieldLabel } from "../../app/dashboard/console/field-text";
import { exampleOf } from "../../app/docs/examples";
import { getOpenApiDocument } from "../../server/api/rest/openapi";
import { emptyFeedReason } from "../../server/feeds/source";
import { warmIpFeeds } from "../../server/ip/reputation";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
  await warmIpFeeds();
}, 180_000);

function responseExample(method: string, path: string): unknown {
  const doc = getOpenApiDocument() as Record<string, any>;
  const op = doc.paths[path][method];
  return exampleOf(doc, op.responses["200"].content["application/json"].schema);
}

describe("answer kinds", () => {
  it.each([
    ["get", "/ip/{ip}", "ip"],
    ["get", "/ip/{ip}/reputation", "ip"],
    ["get", "/ip/{ip}/geo", "geo"],
    ["get", "/asn/{asn}", "asn"],
    ["post", "/email/check", "email"],
    ["get", "/email/security", "email-security"],
    ["get", "/domain/{domain}", "domain"],
    ["get", "/host/{host}/ssl", "tls"],
    ["get", "/dns/lookup", "dns"],
  ])("%s %s answers are shown with the %s summary card", (method, path, kind) => {
    expect(answerKind(responseExample(method, path))).toBe(kind);
  });

  it.each([["post", "/blocklists/check"]])("%s %s has no summary card and opens with its details", (method, path) => {
    expect(answerKind(responseExample(method, path))).toBeNull();
  });

  it("real IP and geolocation answers from the REST API are recognised", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const ip = await app.request("GET", "/v1/ip/8.8.8.8", { key: ws.apiKey });
    expect(ip.status).toBe(200);
    expect(answerKind(ip.body)).toBe("ip");
    const geo = await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: ws.apiKey });
    expect(geo.status).toBe(200);
    expect(answerKind(geo.body)).toBe("geo");
    const asn = await app.request("GET", "/v1/asn/15169", { key: ws.apiKey });
    expect(asn.status).toBe(200);
    expect(answerKind(asn.body)).toBe("asn");
    // Nothing an IP answer says is an instruction for the operator once it is on a user's screen.
    expect(JSON.stringify(forUsersDeep(ip.body))).not.toMatch(/feeds refresh|npm run admin/);
  });
});

describe("yes/no coloured by meaning, never by value", () => {
  it.each([
    ["disposable", false, "good"],
    ["disposable", true, "bad"],
    ["tor", false, "good"],
    ["torExit", true, "bad"],
    ["valid", true, "good"],
    ["valid", false, "bad"],
    ["chainVerified", false, "bad"],
    ["acceptsMail", true, "good"],
    ["freeProvider", true, "neutral"],
    ["freeProvider", false, "neutral"],
    ["roleAccount", true, "neutral"],
    ["disposable", null, "neutral"],
  ] as const)("%s: %s is %s", (field, value, meaning) => {
    expect(meaningOf(field, value)).toBe(meaning);
  });
});

describe("operator text stays out of user views", () => {
  it("the empty-feed reason keeps its news and loses the command", () => {
    const reason = emptyFeedReason({ name: "tor-exits" } as never, { count: 0 } as never)!;
    expect(reason).toContain("feeds refresh");
    const shown = forUsers(reason);
    expect(shown).toBe("The tor-exits feed holds no data yet (shipped empty).");
  });

  it("a sentence that is only an instruction is dropped; other text is untouched", () => {
    expect(
      forUsers(
        "Search the catalog (the complete catalog ships, and refreshes with `npm run admin -- feeds refresh --feed kev`).",
      ),
    ).toBe("Search the catalog.");
    expect(forUsers("Ranges from RouteViews. Run `npm run admin -- feeds refresh` to update.")).toBe(
      "Ranges from RouteViews.",
    );
    expect(forUsers("Use `X-API-Key` or a bearer token.")).toBe("Use `X-API-Key` or a bearer token.");
  });
});

describe("descriptions and reasons as text", () => {
  it("backticked names are shown as code, never as literal backticks", () => {
    const html = renderToStaticMarkup(
      createElement(Prose, { text: "`AS13335` and `13335` are both accepted; 404 when `rdapReason` says so." }),
    );
    expect(html).toBe(
      "<code>AS13335</code> and <code>13335</code> are both accepted; 404 when <code>rdapReason</code> says so.",
    );
    expect(renderToStaticMarkup(createElement(Prose, { text: "no code here, a lone ` stays" }))).toBe(
      "no code here, a lone ` stays",
    );
  });

  it("every console description with backticks renders without one", () => {
    const described = lookupCatalog().filter((e) => e.description.includes("`"));
    expect(described.length).toBeGreaterThan(0);
    for (const e of described) {
      const html = renderToStaticMarkup(createElement(Prose, { text: e.description }));
      expect(html, e.procedure).not.toContain("`");
    }
  });
});

describe("console catalog", () => {
  const catalog = lookupCatalog();

  it("offers only public lookups, each once", () => {
    expect(catalog.find((e) => e.procedure === "reports.create")).toBeUndefined();
    expect(catalog.every((e) => e.path !== null)).toBe(true);
    const names = catalog.map((e) => `${e.method} ${e.summary}`);
    expect(new Set(names).size).toBe(names.length);
    expect(catalog.filter((e) => e.summary === "CAPTCHA diagnostic").map((e) => e.path)).toEqual(["/captcha/test"]);
  });

  it("gives every input a human label and an example (or a list to pick from)", () => {
    for (const e of catalog) {
      for (const f of e.fields) {
        expect(fieldLabel(f.name), `${e.procedure} ${f.name}`).not.toMatch(/_/);
        expect(f.example ?? f.enumValues ?? f.defaultValue, `${e.procedure} ${f.name} has no example`).not.toBeNull();
      }
      expect(`${e.description} ${e.fields.map((f) => f.description).join(" ")}`).not.toMatch(
        /feeds refresh|npm run admin/,
      );
    }
  });

  it("copies a curl command with the $KEY placeholder, the path filled in and the JSON body", () => {
    const geo = catalog.find((e) => e.procedure === "geo.ipGeo")!;
    expect(curlCommand("http://127.0.0.1:3000", geo, { ip: "8.8.8.8" }, "")).toBe(
      `curl -X GET 'http://127.0.0.1:3000/v1/ip/8.8.8.8/geo' \\\n  -H "Authorization: Bearer $KEY"`,
    );
    const email = catalog.find((e) => e.procedure === "email.emailCheck")!;
    expect(JSON.parse(email.bodyTemplate!)).toEqual({ email: "jane@example.com" });
    const cmd = curlCommand("http://127.0.0.1:3000", email, {}, `{ "email": "o'neil@example.com" }`);
    expect(cmd).toContain(`-H "Content-Type: application/json"`);
    expect(cmd).toContain(`-d '{"email":"o'\\''neil@example.com"}'`);
  });
});
