// Writes README.md's table of what each route costs from the charging table (server/api/charging.ts); with --check,
// only says whether the table in README.md is the generated one and exits 1 when it is stale.
import { withCostTable } from "../server/api/cost-table";
import { rewriteReadmeSection } from "./readme-section";

process.env.LOG_LEVEL ||= "silent";
rewriteReadmeSection({
  what: "cost table",
  source: "charging table",
  command: "npm run costs:table",
  generate: withCostTable,
});
process.exit(0);
