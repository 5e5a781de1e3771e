// Bundles scripts/device/device-script.ts (with @fingerprintjs/fingerprintjs and @fingerprintjs/botd, both MIT)
// into public/device.js: `node scripts/device/build.mjs`. The output is committed, so serving it needs no build.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { build } from "esbuild";

// The libraries' licence headers are plain comments, which minifying drops: carry them over as the banner.
const require = createRequire(import.meta.url);
const notice = (pkg, file) =>
  /^\/\*\*[\s\S]*?\*\//.exec(readFileSync(require.resolve(`${pkg}/dist/${file}`), "utf8"))?.[0] ?? "";

await build({
  entryPoints: [new URL("./device-script.ts", import.meta.url).pathname],
  outfile: new URL("../../public/device.js", import.meta.url).pathname,
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2019"],
  legalComments: "inline",
  banner: {
    js: [
      "/* device.js: browser signals for /v1/device/check. Bundles FingerprintJS and BotD: */",
      notice("@fingerprintjs/fingerprintjs", "fp.esm.js"),
      notice("@fingerprintjs/botd", "botd.esm.js"),
    ].join("\n"),
  },
});
