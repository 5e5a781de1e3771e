// A JSON body that begins with a UTF-8 byte-order mark (EF BB BF, what Windows editors and PowerShell's
// `Out-File -Encoding utf8` write) is JSON: RFC 8259 section 8.1 lets a parser ignore the mark. It was refused as "not
// valid JSON" through the REST door; it is read on every JSON route, through the REST door, the account routes (the
// same body reading, server/api/http/respond.ts jsonBodyOf) and the dashboard's /api/trpc. Anything else that is not
// UTF-8 (a UTF-16 mark) is still refused.
import { beforeAll, describe, expect, it } from "vitest";
import { handleDashboardRequest } from "../../server/api/http/dashboard";
import { createTestApp, type TestApp } from "../harness";
import { ownerAndMember } from "../dashboard/call";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
}, 120_000);

const BOM = "\uFEFF";

describe("a JSON body with a UTF-8 byte-order mark", () => {
  it("is read through the REST door", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const body = `${BOM}${JSON.stringify({ name: "bom_list", kind: "email" })}`;
    expect(Buffer.from(body).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const res = await app.request("POST", "/v1/lists", { key: ws.apiKey, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ name: "bom_list", kind: "email" });
    const lists = await app.request("GET", "/v1/lists", { key: ws.apiKey });
    expect(lists.body.items.map((l: { name: string }) => l.name)).toEqual(["bom_list"]);
  });

  it("is read on a metered route, and answered and charged as the same request without the mark", async () => {
    const answers = [];
    for (const mark of ["", BOM]) {
      const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
      const res = await app.request("POST", "/v1/cidr/check", {
        key: ws.apiKey,
        body: `${mark}${JSON.stringify({ cidr: "192.0.2.0/32" })}`,
      });
      answers.push({ status: res.status, code: res.body?.error?.code, used: await app.used(ws.workspaceId) });
    }
    expect(answers[0]!.code).toBeUndefined();
    expect(answers[1]).toEqual(answers[0]);
  });

  it("is refused when the mark is not UTF-8's (UTF-16), free", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const res = await app.request("POST", "/v1/lists", {
      key: ws.apiKey,
      headers: { "content-type": "application/json" },
      // UTF-16 (little-endian) bytes with their mark, FF FE: not UTF-8's, so not JSON as RFC 8259 defines it.
      body: Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from(JSON.stringify({ name: "utf16", kind: "email" }), "utf16le"),
      ]),
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INVALID_REQUEST");
    expect((await app.request("GET", "/v1/lists", { key: ws.apiKey })).body.items).toEqual([]);
  });

  it("is read through the dashboard's /api/trpc", async () => {
    const { owner } = await ownerAndMember(app.db, "bom", ["suite_agency"]);
    const res = await handleDashboardRequest(
      new Request("http://127.0.0.1:3000/api/trpc/lists.create", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: "http://127.0.0.1:3000",
          "x-service-workspace": owner.workspaceId,
        },
        body: Buffer.from(`${BOM}${JSON.stringify({ name: "bom_dash", kind: "ip" })}`),
      }),
      async () => owner.user,
    );
    const body = (await res.json()) as any;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.result.data).toMatchObject({ name: "bom_dash", kind: "ip" });
  });
});
