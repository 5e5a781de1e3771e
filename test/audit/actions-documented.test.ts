// Every audit action the code records (`"audit.<resource>.<action>"` in server/) is named where a reader looks for
// it: README's "Audit trail" and the description of GET /v1/events' `type` (the OpenAPI document). A new action
// written without its docs fails here; the README's list missed lists, cases, monitors and projects before.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getOpenApiDocument } from "../../server/api/rest/openapi";

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return name === "generated" ? [] : sources(p);
    return p.endsWith(".ts") ? [p] : [];
  });
}

/** The actions recorded in code: string literals of the form "audit.<resource>.<action>". */
const recorded = new Set(
  sources(path.join(process.cwd(), "server")).flatMap((f) =>
    [...readFileSync(f, "utf8").matchAll(/"(audit\.[a-z_]+\.[a-z_]+)"/g)].map((m) => m[1]!),
  ),
);

/** `audit.key.created`, `.revoked` -> audit.key.created, audit.key.revoked (README's way of listing them). */
function readmeActions(): Set<string> {
  const readme = readFileSync(path.join(process.cwd(), "README.md"), "utf8");
  const start = readme.indexOf("### Audit trail");
  const text = readme.slice(start, readme.indexOf("\n### ", start + 1));
  const out = new Set<string>();
  let resource = "";
  for (const [, code] of text.matchAll(/`([a-z_.]+)`/g)) {
    const full = /^audit\.([a-z_]+)\.([a-z_]+)$/.exec(code!);
    if (full) {
      resource = full[1]!;
      out.add(code!);
    } else if (/^\.[a-z_]+$/.test(code!) && resource) out.add(`audit.${resource}${code}`);
  }
  return out;
}

/** `audit.key.created|revoked` -> audit.key.created, audit.key.revoked (the events description's way). */
function documentedActions(): Set<string> {
  const doc = getOpenApiDocument() as { paths: Record<string, Record<string, { description?: string }>> };
  const description = doc.paths["/events"]!.get!.description ?? "";
  const out = new Set<string>();
  for (const [, resource, actions] of description.matchAll(/`audit\.([a-z_]+)\.([a-z_|]+)`/g))
    for (const a of actions!.split("|")) out.add(`audit.${resource}.${a}`);
  return out;
}

describe("audit actions", () => {
  it("the code records a few dozen of them (the scan finds them)", () => {
    expect(recorded.size).toBeGreaterThan(25);
    expect(recorded).toContain("audit.project.deleted");
  });

  it("README's Audit trail names every one", () => {
    const named = readmeActions();
    expect([...recorded].filter((a) => !named.has(a)).sort()).toEqual([]);
  });

  it("GET /v1/events' description names every one", () => {
    const named = documentedActions();
    expect([...recorded].filter((a) => !named.has(a)).sort()).toEqual([]);
  });
});
