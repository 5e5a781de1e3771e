// Sign-in: the configured OpenID Connect provider, or (outside production, or with SERVICE_DEV_SIGNIN=1) the
// clearly labelled development sign-in; otherwise an explanation, never a silent fallback.
import { redirect } from "next/navigation";
import { signInMode } from "../../server/auth/config";
import { authSecret } from "../../server/auth/secret";
import { getSessionUser } from "../../server/auth/session";
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

  return (
    <main className="signin">
      <h1>Sign in to the dashboard</h1>
      {error ? (
        <p className="signin-error" role="alert">
          {error}
        </p>
      ) : null}
      {problem ? (
        <p className="signin-error" role="alert" data-testid="signin-unavailable">
          Sign-in is unavailable: {problem}
        </p>
      ) : mode?.kind === "oidc" ? (
        <OidcSignInButton label={mode.oidc.name} callbackUrl={callbackUrl} />
      ) : mode?.kind === "dev" ? (
        <section className="dev-signin">
          <h2>Development sign-in</h2>
          <p>
            No identity provider is configured{mode.explicit ? " and SERVICE_DEV_SIGNIN=1 is set" : ""}: anyone can sign
            in as any email. Configure SERVICE_OIDC_ISSUER, SERVICE_OIDC_CLIENT_ID and SERVICE_OIDC_CLIENT_SECRET for
            real sign-in.
          </p>
          <DevSignInForm callbackUrl={callbackUrl} />
        </section>
      ) : (
        <p className="signin-error" role="alert" data-testid="signin-unavailable">
          {mode?.kind === "unavailable" ? mode.reason : "Sign-in is unavailable."}
        </p>
      )}
      <p className="small">
        <a href="/docs">API reference</a>
      </p>
    </main>
  );
}
