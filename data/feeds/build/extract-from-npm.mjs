// Rebuilds the shipped snapshots that come from npm packages (no other network access): the IANA RDAP
// bootstrap files embedded in `rdap` and the Public Suffix List rules shipped by `psl`.
// Run: node data/feeds/build/extract-from-npm.mjs
// Each package is fetched with `npm pack` (the npm client and its configured registry), pinned to a version.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import vm from "node:vm";

const OUT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const PINS = { rdap: "0.0.14", psl: "1.15.0" };

function unpack(name, version) {
  const dir = mkdtempSync(path.join(tmpdir(), "feed-npm-"));
  const tgz = execFileSync("npm", ["pack", `${name}@${version}`, "--silent"], { cwd: dir, encoding: "utf8" }).trim().split("\n").pop();
  execFileSync("tar", ["xzf", tgz], { cwd: dir });
  return path.join(dir, "package");
}

function publishedAt(name, version) {
  const times = JSON.parse(execFileSync("npm", ["view", name, "time", "--json"], { encoding: "utf8" }));
  return times[version];
}

function writeMeta(file, meta) {
  writeFileSync(path.join(OUT, `${file}.meta.json`), JSON.stringify(meta, null, 2) + "\n");
}

// rdap@0.0.14 embeds the four IANA bootstrap registries as object literals in its bundle.
{
  const pkg = unpack("rdap", PINS.rdap);
  const dir = path.join(pkg, "dist", "shared");
  const bundle = readdirSync(dir).find((f) => f.endsWith(".mjs"));
  const text = readFileSync(path.join(dir, bundle), "utf8");
  const start = text.lastIndexOf("const ", text.indexOf('"RDAP bootstrap file for'));
  const end = text.indexOf(";async function", start);
  const ctx = vm.createContext({});
  vm.runInContext("var " + text.slice(start + "const ".length, end) + ";", ctx);
  const byDescription = {};
  for (const v of Object.values(ctx)) if (v && typeof v === "object" && Array.isArray(v.services) && v.description) byDescription[v.description] = v;
  const files = {
    asn: "RDAP bootstrap file for Autonomous System Number allocations",
    dns: "RDAP bootstrap file for Domain Name System registrations",
    ipv4: "RDAP bootstrap file for IPv4 address allocations",
    ipv6: "RDAP bootstrap file for IPv6 address allocations",
  };
  for (const [kind, description] of Object.entries(files)) {
    const data = byDescription[description];
    if (!data) throw new Error(`bootstrap ${kind} not found in rdap@${PINS.rdap}`);
    const name = `rdap-bootstrap-${kind}`;
    writeFileSync(path.join(OUT, `${name}.json`), JSON.stringify(data) + "\n");
    writeMeta(name, {
      source: `IANA RDAP bootstrap registry ${kind}.json (RFC 9224), as embedded in the npm package rdap@${PINS.rdap}`,
      license: "IANA registry data, published for unrestricted use",
      attribution: "Internet Assigned Numbers Authority (IANA)",
      fetchedAt: data.publication,
      version: data.publication,
      services: data.services.length,
    });
  }
}

// psl@1.15.0 ships the Public Suffix List rules (ICANN and private sections merged, comments removed).
{
  const pkg = unpack("psl", PINS.psl);
  const mod = readFileSync(path.join(pkg, "data", "rules.js"), "utf8");
  const rules = JSON.parse(mod.slice(mod.indexOf("["), mod.lastIndexOf("]") + 1));
  const at = publishedAt("psl", PINS.psl);
  const header = [
    `// Public Suffix List rules from the npm package psl@${PINS.psl} (published ${at}).`,
    "// This Source Code Form is subject to the terms of the Mozilla Public License, v. 2.0.",
    "// If a copy of the MPL was not distributed with this file, You can obtain one at https://mozilla.org/MPL/2.0/.",
    "",
  ];
  writeFileSync(path.join(OUT, "public-suffix-list.dat"), header.join("\n") + rules.join("\n") + "\n");
  writeMeta("public-suffix-list", {
    source: `Public Suffix List (publicsuffix.org) rules as shipped in the npm package psl@${PINS.psl}`,
    license: "MPL-2.0",
    attribution: "Public Suffix List, Mozilla Foundation and contributors",
    fetchedAt: at,
    version: `psl@${PINS.psl}`,
    rules: rules.length,
  });
}

// Cloudflare's ranges now come from the dated evidence snapshots (import-evidence-snapshots.mjs).
console.log("extracted into", OUT);
