// The platform's clock and randomness as Node gives them, for the production server (scripts/server.mjs).
//
// Next's server installs "environment extensions" when it loads (next/dist/server/node-environment.js): it replaces
// the global Date (constructor and Date.now), Math.random, node:crypto's random functions and Web Crypto's
// getRandomValues and randomUUID with wrappers that first ask two of its AsyncLocalStorage instances whether a
// prerender with `cacheComponents` is running, so that reading the time or randomness there marks the page dynamic.
// The wrappers change no value; they act only when the build enables `cacheComponents`, which this service does not
// (next.config.ts), or in a runtime prefetch (`RSC: 1` with `Next-Router-Prefetch: 2`), which Next's client sends only
// with `cacheComponents`: such a request made by hand renders a dynamic page whole instead of being cut short. Each
// call still pays for them: on /v1, `new Date()` alone was about 3.5 % of a metered lookup's CPU in the production
// server's profile (docs/benchmarks.md). capturePlatformGlobals() keeps the originals before
// Next loads; restorePlatformGlobals() puts them back after it has, unless the build enables `cacheComponents`.

import nodeCrypto from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";

const NODE_CRYPTO = [
  "randomUUID",
  "randomBytes",
  "randomFillSync",
  "randomInt",
  "generatePrimeSync",
  "generateKeyPairSync",
  "generateKeySync",
];
const WEB_CRYPTO = ["getRandomValues", "randomUUID"];

/** The globals Next's environment extensions replace, as they are now. */
export function capturePlatformGlobals() {
  const webCrypto = globalThis.crypto ?? nodeCrypto.webcrypto;
  return {
    Date: globalThis.Date,
    random: Math.random,
    nodeCrypto: Object.fromEntries(NODE_CRYPTO.map((name) => [name, nodeCrypto[name]])),
    webCrypto,
    webCryptoOwn: Object.fromEntries(
      WEB_CRYPTO.map((name) => [name, Object.getOwnPropertyDescriptor(webCrypto, name)]),
    ),
  };
}

/**
 * Puts back what capturePlatformGlobals() kept, unless `cacheComponents` is on (the wrappers are Next's way of
 * noticing the time or randomness read in a prerender then). Returns the names restored.
 */
export function restorePlatformGlobals(kept, { cacheComponents }) {
  if (cacheComponents) return [];
  const restored = [];
  if (globalThis.Date !== kept.Date) {
    globalThis.Date = kept.Date;
    // Next also points Date.prototype.constructor at its wrapper.
    Object.defineProperty(kept.Date.prototype, "constructor", { value: kept.Date });
    restored.push("Date");
  }
  if (Math.random !== kept.random) {
    Math.random = kept.random;
    restored.push("Math.random");
  }
  for (const [name, fn] of Object.entries(kept.nodeCrypto)) {
    if (fn !== undefined && nodeCrypto[name] !== fn) {
      nodeCrypto[name] = fn;
      restored.push(`crypto.${name}`);
    }
  }
  for (const [name, own] of Object.entries(kept.webCryptoOwn)) {
    const now = Object.getOwnPropertyDescriptor(kept.webCrypto, name);
    if (now?.value === own?.value) continue;
    // Next assigned its wrapper as the object's own property; the original may have come from the prototype.
    if (own) Object.defineProperty(kept.webCrypto, name, own);
    else delete kept.webCrypto[name];
    restored.push(`webcrypto.${name}`);
  }
  return restored;
}

/** The originals, kept when this module is first loaded: scripts/server.mjs imports it before Next. */
export const platformGlobalsAtLoad = capturePlatformGlobals();

/** Whether the build in `distDir` enables `cacheComponents` (its required-server-files.json); true when unreadable. */
export function buildUsesCacheComponents(distDir) {
  try {
    const { config } = JSON.parse(readFileSync(path.join(distDir, "required-server-files.json"), "utf8"));
    return Boolean(config.cacheComponents ?? config.experimental?.cacheComponents ?? false);
  } catch {
    return true;
  }
}
