// A lockfile entry whose name npm could never have published (walk #21: `=HYPERLINK("http://e.example")`) is not a
// registry package: the scan skips it with the reason, does not look it up and does not charge for it. Names npm
// took for old packages (capitals, over 214 characters, ~ ! ' ( ) *) are still scanned.
import { describe, expect, it } from "vitest";
import { parseLockfile } from "../../server/vulnerabilities/lockfiles";
import { npmNameProblem } from "../../server/vulnerabilities/lockfiles/npm-name";
import { createTestApp } from "../harness";
import { useFakePackageSources } from "./fake-sources";

useFakePackageSources();
const app = await createTestApp();

const BAD = '=HYPERLINK("http://e.example")';
const packageLock = (names: string[]) =>
  JSON.stringify(
    {
      name: "x",
      version: "1.0.0",
      lockfileVersion: 3,
      requires: true,
      packages: {
        "": { name: "x", version: "1.0.0" },
        ...Object.fromEntries(names.map((n) => [`node_modules/${n}`, { version: "1.0.0" }])),
      },
    },
    null,
    2,
  );

describe("npm names in a lockfile", () => {
  it("npm's rules for any package, old ones included", () => {
    for (const ok of ["express", "@babel/core", "JSONStream", "-", "a~b", "x!('*')", "@acme/widget", "a".repeat(300)])
      expect(npmNameProblem(ok), ok).toBeNull();
    for (const bad of [BAD, "", " x", ".hidden", "_private", "node_modules", "a b", "a/b", "@scope/a/b", "@/x", "é"])
      expect(npmNameProblem(bad), bad).not.toBeNull();
  });

  it("the parser skips such an entry with the reason and its line", () => {
    const text = packageLock([BAD, "@acme/widget"]);
    const parsed = parseLockfile(text);
    expect(parsed.packages.map((p) => p.name)).toEqual(["@acme/widget"]);
    expect(parsed.skipped).toEqual([
      {
        name: BAD,
        spec: "1.0.0",
        reason: expect.stringMatching(/^not an npm package name/),
        line: text.split("\n").findIndex((l) => l.includes("=HYPERLINK")) + 1,
      },
    ]);
  });

  it("POST /v1/vulnerabilities/scan lists it under skipped and charges only the real package", async () => {
    const ws = await app.seedWorkspace();
    const res = await app.request("POST", "/v1/vulnerabilities/scan", {
      key: ws.apiKey,
      body: packageLock([BAD, "@acme/widget"]),
      headers: { "Content-Type": "text/plain" },
    });
    expect(res.status).toBe(200);
    expect(res.body.packages.map((p: any) => p.name)).toEqual(["@acme/widget"]);
    expect(res.body.skipped).toMatchObject([{ name: BAD, reason: expect.stringMatching(/^not an npm package name/) }]);
    expect(res.headers.get("x-service-quota-used")).toBe("1");
    expect(await app.used(ws.workspaceId)).toBe(1);
  });
});
