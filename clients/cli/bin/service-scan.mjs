#!/usr/bin/env node
// Node 20 cannot run TypeScript: tsx (a dependency of the repository root) compiles the CLI's source as it loads,
// scoped to this import, so a checkout needs no build step. Exit codes in clients/cli/README.md.
let main;
try {
  const { tsImport } = await import("tsx/esm/api");
  // The scanned repository's tsconfig.json (the working directory's) has no say in how the CLI compiles.
  ({ main } = await tsImport("../src/main.ts", { parentURL: import.meta.url, tsconfig: false }));
} catch (err) {
  // Exit 1 means "the policy failed": a checkout without its dependencies must not look like that.
  process.stderr.write(`service-scan: cannot load (run npm install at the repository root): ${err.message}\n`);
  process.exit(2);
}
process.exitCode = await main(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
