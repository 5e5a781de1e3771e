// Writes README.md's settings table from the settings registry (server/env/); with --check, only says whether the
// table in README.md is the generated one and exits 1 when it is stale (CI: `npm run settings:check`).
import { withSettingsTable } from "../server/env/table";
import { rewriteReadmeSection } from "./readme-section";

rewriteReadmeSection({
  what: "settings table",
  source: "settings registry",
  command: "npm run settings:table",
  generate: withSettingsTable,
});
