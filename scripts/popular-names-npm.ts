// Rebuilds data/popular/npm.json, the popular npm names typosquat checks compare against (issue 25, item 5), from
// an installed copy of `npm-high-impact` (MIT). The package is not a dependency of the service: install it in a
// scratch folder and pass that folder, so the shipped list is dated by the release it came from.
// Run: npx tsx scripts/popular-names-npm.ts /tmp/nhi/node_modules/npm-high-impact
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

type PackageJson = { name?: string; version?: string; license?: string };

const folder = process.argv[2];
if (!folder) {
  console.error("usage: tsx scripts/popular-names-npm.ts <folder of npm-high-impact>");
  process.exit(2);
}

const pkg = JSON.parse(readFileSync(path.join(folder, "package.json"), "utf8")) as PackageJson;
if (pkg.name !== "npm-high-impact" || !pkg.version) {
  throw new Error(`${folder} is not an installed npm-high-impact package`);
}
if (pkg.license !== "MIT") throw new Error(`npm-high-impact ${pkg.version} is licensed ${pkg.license}, not MIT`);

// npmTopDownloads, not npmHighImpact: the latter appends packages that are only much depended upon, and the
// issue's rule compares downloads. Every name here has at least 1,000,000 downloads a week, most first.
const mod = (await import(pathToFileURL(path.resolve(folder, "index.js")).href)) as { npmTopDownloads: string[] };
const names = mod.npmTopDownloads;
if (!Array.isArray(names) || names.length < 1000) throw new Error("npmTopDownloads is missing or too short");

// The list is dated by the registry's publish time of this exact version (the npm client, its configured registry).
const times = JSON.parse(
  execFileSync("npm", ["view", `npm-high-impact@${pkg.version}`, "time", "--json"], { encoding: "utf8" }),
) as Record<string, string>;
const published = times[pkg.version];
if (!published) throw new Error(`the registry gives no publish time for npm-high-impact ${pkg.version}`);

const out = {
  source: `npm-high-impact ${pkg.version} (MIT)`,
  list: "npmTopDownloads",
  date: new Date(published).toISOString(),
  names,
};
const file = fileURLToPath(new URL("../data/popular/npm.json", import.meta.url));
writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
console.log(`${file}: ${names.length} names from ${out.source}, published ${out.date}`);
