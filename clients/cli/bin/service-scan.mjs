#!/usr/bin/env node
// The command as installed: plain JavaScript that tsc built from src/ into dist/ (npm run build; npm pack runs it
// first), so it needs nothing but Node 20. Exit codes in README.md.
let main;
try {
  ({ main } = await import("../dist/main.js"));
} catch (err) {
  // Exit 1 means "the policy failed": a checkout that was never built must not look like that.
  process.stderr.write(`service-scan: cannot load (in a checkout, run npm run build in clients/cli): ${err.message}\n`);
  process.exit(2);
}
process.exitCode = await main(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
