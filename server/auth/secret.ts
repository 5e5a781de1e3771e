// The key that signs and encrypts session tokens. Production requires NEXTAUTH_SECRET; development generates one
// and keeps it in the data folder, so sessions survive restarts and die with the database they refer to.
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { dataDir, inMemory } from "../db/config";
import { ConfigurationError, isProductionDeployment, setting } from "../env";
import { isProduction } from "./config";
import { makeFolders } from "../db/make-folders.mjs";

let generated: string | null = null;

const REQUIRED =
  "NEXTAUTH_SECRET is required in production: set it to a long random value (e.g. `openssl rand -base64 32`).";

function configuredSecret(): string | null {
  return setting("NEXTAUTH_SECRET") ?? setting("AUTH_SECRET");
}

/** A production run with no configured secret. An explicit development sign-in (SERVICE_DEV_SIGNIN=1) is a local or
 * demo run: a generated secret is fine there. */
function secretMissing(): boolean {
  if (configuredSecret()) return false;
  return isProductionDeployment() || (isProduction() && !setting("SERVICE_DEV_SIGNIN"));
}

/**
 * Start-up's check (server/startup/index.ts): a production run without NEXTAUTH_SECRET stops at start, naming the
 * variable. It used to start, report ready, and answer every sign-in, account and billing route 500.
 */
export function assertAuthSecretConfigured(): void {
  if (secretMissing()) throw new ConfigurationError(REQUIRED);
}

export function authSecret(): string {
  const configured = configuredSecret();
  if (configured) return configured;
  if (secretMissing()) throw new Error(REQUIRED);
  if (generated) return generated;
  const dir = dataDir();
  if (inMemory(dir)) {
    generated = randomBytes(32).toString("base64url");
    return generated;
  }
  const file = path.join(dir, "nextauth-secret");
  try {
    generated = readFileSync(file, "utf8").trim();
    if (generated) return generated;
  } catch {
    // first start: create it below
  }
  makeFolders(dir);
  generated = randomBytes(32).toString("base64url");
  writeFileSync(file, generated + "\n", { mode: 0o600 });
  return generated;
}
