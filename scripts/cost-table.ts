// Writes README.md's table of what each route costs from the charging table (server/api/charging.ts); with --check,
// only says whether the table in README.md is the generated one and exits 1 when it is stale.
import { readFileSync, writeFileSync } from "node:fs";
import { withCostTable } from "../server/api/cost-table";

process.env.LOG_LEVEL ||= "silent";
const file = new URL("../README.md", import.meta.url);
const current = readFileSync(file, "utf8");
const generated = withCostTable(current);

if (process.argv.includes("--check")) {
  if (generated !== current) {
    console.error("README.md's cost table is stale: run `npm run costs:table` and commit README.md.");
    process.exit(1);
  }
  console.log("README.md's cost table matches the charging table.");
} else if (generated !== current) {
  writeFileSync(file, generated);
  console.log("README.md's cost table rewritten from the charging table.");
} else {
  console.log("README.md's cost table is up to date.");
}
process.exit(0);
