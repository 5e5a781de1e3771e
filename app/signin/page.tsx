// Sign-in: the configured OpenID Connect provider, or (outside production, or with SERVICE_DEV_SIGNIN=1) the
// clearly labelled development sign-in; otherwise an explanation, never a silent fallback. The explanations are for
// visitors, in plain words; the settings to change go to the log (server/auth/signin-notice.ts).
import { redirect } from "next/navigation";
import { signInMode } from "../../server/auth/config";
import { authSecret } from "../../server/auth/secret";
import { getSessionUser } from "../../server/auth/session";
import { signInNotice } from "../../server/auth/signin-notice";
import { DevSignInForm, OidcSignInButton } from "./SignInForms";
import "./signin.css";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in" };

const ERRORS: Record<string, string> = {
  CredentialsSignin: "Enter a valid email address.",
  AccessDenied: "Sign-in was refused: the identity provider did not supply a verified email address.",
  OAuthSignin: "Could not reach the identity provider.",
  OAuthCallback: "The identity provider's answer could not be verified.",
  Configuration: "Sign-in is misconfigured on the server.",
};

function safeCallback(raw: string | undefined): string {
  // Only same-site paths: a full URL here would make the sign-in page an open redirect.
  return raw && raw.startsWith("/") && !raw.startsWith("//") ? raw : "/dashboard";
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const params = await searchParams;
  const callbackUrl = safeCallback(params.callbackUrl);
  let problem: string | null = null;
  let mode: ReturnType<typeof signInMode> | null = null;
  try {
    mode = signInMode();
    authSecret();
  } catch (err) {
    problem = (err as Error).message;
  }
  if (!problem && (await getSessionUser().catch(() => null))) redirect(callbackUrl);
  const error = params.error ? (ERRORS[params.error] ?? "Sign-in failed; try again.") : null;
  const notice = signInNotice(mode, problem);

  return (
    <main className="signin">
      <h1>Sign in to the dashboard</h1>
      {error ? (
        <p className="signin-error" role="alert">
          {error}
        </p>
      ) : null}
      {!problem && mode?.kind === "oidc" ? (
        <OidcSignInButton label={mode.oidc.name} callbackUrl={callbackUrl} />
      ) : !problem && mode?.kind === "dev" ? (
        <section className="dev-signin">
          <h2>Development sign-in</h2>
          <p>{notice}</p>
          <DevSignInForm callbackUrl={callbackUrl} />
        </section>
      ) : (
        <p className="signin-error" role="alert" data-testid="signin-unavailable">
          {notice ?? "Sign-in is unavailable."}
        </p>
      )}
      <p className="small">
        <a href="/docs">API reference</a>
      </p>
    </main>
  );
}
