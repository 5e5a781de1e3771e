// next-auth options for the dashboard: JWT sessions (no adapter), one sign-in provider chosen by signInMode().
// Built lazily on first request, so `next build` needs no secret and a misconfiguration surfaces with a clear
// message at sign-in time instead of at import.
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import type { OAuthConfig } from "next-auth/providers/oauth";
import { getDb } from "../db/client";
import { configureNextAuthEnvironment } from "../env";
import { logger } from "../operate/log";
import { ensureUser } from "../workspaces/members";
import { configuredOrigin, signInMode, type OidcConfig } from "./config";
import { authSecret } from "./secret";

export const DEV_PROVIDER_ID = "dev";
export const OIDC_PROVIDER_ID = "oidc";
const SESSION_MAX_AGE_SECONDS = 7 * 24 * 3600;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type OidcProfile = {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
};

function oidcProvider(c: OidcConfig): OAuthConfig<OidcProfile> {
  return {
    id: OIDC_PROVIDER_ID,
    name: c.name,
    type: "oauth",
    wellKnown: `${c.issuer}/.well-known/openid-configuration`,
    clientId: c.clientId,
    clientSecret: c.clientSecret,
    authorization: { params: { scope: "openid email profile" } },
    idToken: true,
    checks: ["pkce", "state"],
    profile: (p) => ({ id: p.sub, email: p.email ?? null, name: p.name ?? p.preferred_username ?? null }),
  };
}

function devProvider() {
  return CredentialsProvider({
    id: DEV_PROVIDER_ID,
    name: "Development sign-in",
    credentials: { email: { label: "Email", type: "email" } },
    // Trusts any well-formed email: only ever offered when no identity provider is configured (see signInMode).
    authorize: async (credentials) => {
      const email = credentials?.email?.trim().toLowerCase() ?? "";
      if (!EMAIL.test(email) || email.length > 254) return null;
      return { id: email, email, name: null };
    },
  });
}

let cached: NextAuthOptions | null = null;

export function getAuthOptions(): NextAuthOptions {
  if (cached) return cached;
  const mode = signInMode();
  // next-auth reads its URL from the environment: the configured origin, or else (no URL) the request's Host, so
  // the app works at whatever address it is reached by (http://127.0.0.1:PORT included).
  configureNextAuthEnvironment(configuredOrigin());
  if (mode.kind === "dev" && mode.explicit) {
    logger().warn("SERVICE_DEV_SIGNIN=1: the development sign-in is enabled; anyone can sign in as any email.");
  }
  cached = {
    secret: authSecret(),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/signin", error: "/signin" },
    providers: mode.kind === "oidc" ? [oidcProvider(mode.oidc)] : mode.kind === "dev" ? [devProvider()] : [],
    callbacks: {
      // Invitations are linked by email, so only an address the identity provider vouches for may sign in.
      signIn: ({ user, profile }) => {
        if (!user.email || !EMAIL.test(user.email)) return false;
        if ((profile as OidcProfile | undefined)?.email_verified === false) return false;
        return true;
      },
      jwt: async ({ token, user }) => {
        if (user?.email) {
          const row = await ensureUser(await getDb(), { email: user.email, name: user.name ?? null });
          token.userId = row.id;
          token.email = row.email;
          token.name = row.name;
        }
        return token;
      },
      session: ({ session, token }) => {
        session.user = {
          id: token.userId as string,
          email: token.email ?? null,
          name: token.name ?? null,
        } as typeof session.user;
        return session;
      },
    },
  };
  return cached;
}
