// Sign-in configuration, read at call time so tests and the e2e server can set it per process.
// Which sign-in the dashboard offers: a generic OpenID Connect provider when configured; otherwise, outside
// production, a development sign-in that trusts any email. Production never falls back to it silently.
import { isProductionDeployment, nodeEnv, setting } from "../env";

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Label on the sign-in button. */
  name: string;
}

export type SignInMode =
  { kind: "oidc"; oidc: OidcConfig } | { kind: "dev"; explicit: boolean } | { kind: "unavailable"; reason: string };

const OIDC_VARS = ["SERVICE_OIDC_ISSUER", "SERVICE_OIDC_CLIENT_ID", "SERVICE_OIDC_CLIENT_SECRET"] as const;

const env = (name: (typeof OIDC_VARS)[number] | "SERVICE_OIDC_NAME"): string | undefined => setting(name) ?? undefined;

/** A production build (`next start`, NODE_ENV=production); see isProductionDeployment for the operator's word. */
export function isProduction(): boolean {
  return nodeEnv() === "production";
}

/** The OIDC provider, or null when none is configured. A half-configured provider is an operator error. */
export function oidcConfig(): OidcConfig | null {
  const set = OIDC_VARS.filter((n) => env(n));
  if (set.length === 0) return null;
  if (set.length < OIDC_VARS.length) {
    const missing = OIDC_VARS.filter((n) => !env(n));
    throw new Error(
      `OpenID Connect sign-in is half configured: set ${missing.join(", ")} as well (or none of ${OIDC_VARS.join(", ")}).`,
    );
  }
  return {
    issuer: env("SERVICE_OIDC_ISSUER")!.replace(/\/+$/, ""),
    clientId: env("SERVICE_OIDC_CLIENT_ID")!,
    clientSecret: env("SERVICE_OIDC_CLIENT_SECRET")!,
    name: env("SERVICE_OIDC_NAME") ?? "Single sign-on",
  };
}

/**
 * SERVICE_DEV_SIGNIN=1 turns the development sign-in on in a production build (end-to-end tests, demos on a
 * private machine); it is an explicit, logged choice, never a fallback. Anyone can then sign in as any email.
 */
export function signInMode(): SignInMode {
  const oidc = oidcConfig();
  if (oidc) return { kind: "oidc", oidc };
  const explicit = setting("SERVICE_DEV_SIGNIN");
  // A declared production deployment never offers the development sign-in, whatever else is set.
  if (!isProductionDeployment() && (!isProduction() || explicit)) return { kind: "dev", explicit };
  return {
    kind: "unavailable",
    reason:
      "Sign-in is not configured. Set SERVICE_OIDC_ISSUER, SERVICE_OIDC_CLIENT_ID and SERVICE_OIDC_CLIENT_SECRET to an OpenID Connect provider.",
  };
}

/** The app's public origin when configured (NEXTAUTH_URL, else SERVICE_PUBLIC_URL); null means "from the request". */
export function configuredOrigin(): string | null {
  const raw = setting("NEXTAUTH_URL") ?? setting("SERVICE_PUBLIC_URL");
  // Both are checked as URLs when read: an invalid one throws ConfigurationError naming it.
  return raw ? new URL(raw).origin : null;
}
