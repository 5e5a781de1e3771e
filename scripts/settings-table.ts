// Writes README.md's settings table from the settings registry (server/env/); with --check, only says whether the
// table in README.md is the generated one and exits 1 when it is stale (CI: `npm run settings:check`).
import { readFileSync, writeFileSync } from "node:fs";
import { withSettingsTable } from "../server/env/table";

const file = new URL("../README.md", import.meta.url);
const current = readFileSync(file, "utf8");
const generated = withSettingsTable(current);

if (process.argv.includes("--check")) {
  if (generated !== current) {
    console.error("README.md's settings table is stale: run `npm run settings:table` and commit README.md.");
    process.exit(1);
  }
  console.log("README.md's settings table matches the settings registry.");
} else if (generated !== current) {
  writeFileSync(file, generated);
  console.log("README.md's settings table rewritten from the settings registry.");
} else {
  console.log("README.md's settings table is up to date.");
}
