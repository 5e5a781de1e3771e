// The configuration docs describe the shipped feed snapshots (issue 22, item 22: they said the KEV snapshot was
// partial and the Tor list empty long after complete ones shipped). Each feed's `.meta.json` is the truth: its
// record count and version must appear in its row, and a feed with records is never described as empty.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const feedsDir = path.join(process.cwd(), "data", "feeds");
const metas = readdirSync(feedsDir)
  .filter((f) => f.endsWith(".meta.json"))
  .map((f) => ({
    name: f.slice(0, -".meta.json".length),
    ...(JSON.parse(readFileSync(path.join(feedsDir, f), "utf8")) as { records?: number; version?: string | null }),
  }));
// Feeds documented elsewhere (docs/config/vulnerabilities.md, dns-email-blocklists.md) or not list-shaped.
const OTHER_AREAS = new Set(["kev", "disposable-domains", "free-email-domains", "role-accounts"]);

function tableRow(doc: string, feed: string): string | undefined {
  return doc.split("\n").find(
    (l) =>
      l.startsWith("|") &&
      l
        .split("|")[1]
        .split(",")
        .some((c) => c.trim() === feed),
  );
}

describe("docs/config/feeds-ip.md matches data/feeds", () => {
  const doc = readFileSync(path.join(process.cwd(), "docs", "config", "feeds-ip.md"), "utf8");
  const withRecords = metas.filter((m) => !OTHER_AREAS.has(m.name) && typeof m.records === "number");
  it("has shipped feeds with records to check", () => expect(withRecords.length).toBeGreaterThan(20));
  for (const m of withRecords) {
    it(`${m.name}: ${m.records} records of ${m.version}`, () => {
      const row = tableRow(doc, m.name);
      expect(row, `no row for ${m.name}`).toBeDefined();
      const shipped = row!.split("|")[2];
      expect(shipped).not.toMatch(/empty/i);
      expect(shipped).toContain(String(m.records));
      expect(shipped).toContain(String(m.version));
    });
  }
  it("a feed shipped without data is described as empty", () => {
    for (const m of metas.filter((x) => x.version === null))
      expect(tableRow(doc, m.name)?.split("|")[2]).toMatch(/empty/);
  });
});

describe("docs/config/vulnerabilities.md matches the shipped KEV snapshot", () => {
  const doc = readFileSync(path.join(process.cwd(), "docs", "config", "vulnerabilities.md"), "utf8");
  const kev = metas.find((m) => m.name === "kev")!;
  const snapshot = JSON.parse(readFileSync(path.join(feedsDir, "kev.json"), "utf8")) as { partial?: boolean };
  it("names the shipped catalog's version and size, and says partial only when it is", () => {
    const section = doc.slice(doc.indexOf("## Known-exploited catalog"));
    expect(section).toContain(String(kev.version));
    expect(section).toContain(String(kev.records));
    if (snapshot.partial === true) expect(section).toMatch(/\*\*partial\*\*/);
    else expect(section).not.toMatch(/is \*\*partial\*\*/);
  });
});
