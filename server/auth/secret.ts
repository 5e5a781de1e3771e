// The key that signs and encrypts session tokens. Production requires NEXTAUTH_SECRET; development generates one
// and keeps it in the data folder, so sessions survive restarts and die with the database they refer to.
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { dataDir, inMemory } from "../db/config";
import { isProductionDeployment, setting } from "../env";
import { isProduction } from "./config";

let generated: string | null = null;

export function authSecret(): string {
  const configured = setting("NEXTAUTH_SECRET") ?? setting("AUTH_SECRET");
  if (configured) return configured;
  // An explicit development sign-in (SERVICE_DEV_SIGNIN=1) is a local or demo run: a generated secret is fine.
  if (isProductionDeployment() || (isProduction() && !setting("SERVICE_DEV_SIGNIN"))) {
    throw new Error(
      "NEXTAUTH_SECRET is required in production: set it to a long random value (e.g. `openssl rand -base64 32`).",
    );
  }
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
  mkdirSync(dir, { recursive: true });
  generated = randomBytes(32).toString("base64url");
  writeFileSync(file, generated + "\n", { mode: 0o600 });
  return generated;
}
