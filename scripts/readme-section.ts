// Rewrites a README.md section generated from code, or with --check only says whether it is the generated one and
// exits 1 when it is stale. Used by scripts/settings-table.ts and scripts/cost-table.ts.
import { readFileSync, writeFileSync } from "node:fs";

export function rewriteReadmeSection(a: {
  what: string;
  source: string;
  command: string;
  generate: (readme: string) => string;
}) {
  const file = new URL("../README.md", import.meta.url);
  const current = readFileSync(file, "utf8");
  const generated = a.generate(current);
  if (process.argv.includes("--check")) {
    if (generated !== current) {
      console.error(`README.md's ${a.what} is stale: run \`${a.command}\` and commit README.md.`);
      process.exit(1);
    }
    console.log(`README.md's ${a.what} matches the ${a.source}.`);
  } else if (generated !== current) {
    writeFileSync(file, generated);
    console.log(`README.md's ${a.what} rewritten from the ${a.source}.`);
  } else {
    console.log(`README.md's ${a.what} is up to date.`);
  }
}
