// What the sign-in page says when real sign-in is not set up, and what the operator reads in the log. A visitor is
// not the operator: the page says in plain words that sign-in is not set up and whom to ask, never a setting's name
// (it named SERVICE_OIDC_* and SERVICE_DEV_SIGNIN to anyone who opened it); the settings to set go to the log, once
// per process and message, since the page is opened again and again.
import { logger } from "../operate/log";
import type { SignInMode } from "./config";

export const DEV_SIGNIN_NOTICE =
  "Sign-in is not set up on this server, so anyone can sign in here as any email address. Use it only to try the " +
  "service out, and ask the operator of this service to set up sign-in for real use.";
export const NOT_SET_UP_NOTICE =
  "Sign-in is not set up on this server yet. Ask the operator of this service to set it up.";
export const MISCONFIGURED_NOTICE =
  "Sign-in is unavailable because of a problem with this server's settings. Ask the operator of this service.";

const logged = new Set<string>();

function tellOperator(level: "warn" | "error", msg: string): void {
  if (logged.has(msg)) return;
  logged.add(msg);
  logger()[level]({ component: "signin" }, msg);
}

/** The sign-in page's notice for `mode` (or for the settings problem that stopped reading it), null for OpenID Connect. */
export function signInNotice(mode: SignInMode | null, problem: string | null): string | null {
  if (problem) {
    tellOperator("error", `the sign-in page cannot offer sign-in: ${problem}`);
    return MISCONFIGURED_NOTICE;
  }
  if (mode?.kind === "dev") {
    tellOperator(
      "warn",
      `the sign-in page offers the development sign-in (anyone can sign in as any email)` +
        `${mode.explicit ? " because SERVICE_DEV_SIGNIN=1 is set" : ""}: set SERVICE_OIDC_ISSUER, ` +
        "SERVICE_OIDC_CLIENT_ID and SERVICE_OIDC_CLIENT_SECRET for real sign-in",
    );
    return DEV_SIGNIN_NOTICE;
  }
  if (mode?.kind === "unavailable") {
    tellOperator("error", `the sign-in page cannot offer sign-in: ${mode.reason}`);
    return NOT_SET_UP_NOTICE;
  }
  return null;
}
