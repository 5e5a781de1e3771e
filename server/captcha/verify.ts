// Device/CAPTCHA diagnostic: verifies a CAPTCHA token with its provider and explains the outcome (why a token
// fails, whether hostname and action match what the site expects, the reCAPTCHA v3 score), so an integrator can
// debug a form before relying on it.
import { AppError } from "../errors";
import { captchaTimeoutMs, configuredSecret, verifyUrl, type CaptchaProvider } from "./providers";

export interface CaptchaTestInput {
  provider: CaptchaProvider;
  token: string;
  secret?: string;
  remote_ip?: string;
  expected_hostname?: string;
  expected_action?: string;
  min_score?: number;
}

type SiteverifyAnswer = {
  success?: boolean;
  hostname?: string;
  challenge_ts?: string;
  action?: string;
  score?: number;
  "error-codes"?: string[];
};

const ERROR_HELP: Record<string, string> = {
  "missing-input-secret": "No secret was sent: pass the site's secret key or configure it on the server.",
  "invalid-input-secret": "The secret key is wrong or belongs to another site.",
  "missing-input-response": "No token was sent.",
  "invalid-input-response": "The token is malformed, expired or belongs to another site key.",
  "timeout-or-duplicate": "The token was already verified once or is too old: tokens are single-use and short-lived.",
  "bad-request": "The provider rejected the request as malformed.",
  "internal-error": "The provider failed internally; retry.",
};

export async function runCaptchaTest(input: CaptchaTestInput) {
  const secret = input.secret ?? configuredSecret(input.provider);
  const url = verifyUrl(input.provider);
  const form = new URLSearchParams({ secret: secret ?? "", response: input.token });
  if (input.remote_ip) form.set("remoteip", input.remote_ip);
  let answer: SiteverifyAnswer;
  const started = Date.now();
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: form,
      signal: AbortSignal.timeout(captchaTimeoutMs()),
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    answer = (await res.json()) as SiteverifyAnswer;
  } catch (err) {
    throw new AppError(
      "UPSTREAM_UNAVAILABLE",
      `The ${input.provider} verification service is unavailable (${(err as Error).message}); try again in a moment.`,
    );
  }
  const errorCodes = Array.isArray(answer["error-codes"]) ? answer["error-codes"].map(String) : [];
  const hostnameMatch =
    input.expected_hostname && answer.hostname
      ? answer.hostname.toLowerCase() === input.expected_hostname.toLowerCase()
      : null;
  const actionMatch = input.expected_action && answer.action ? answer.action === input.expected_action : null;
  const score = typeof answer.score === "number" ? answer.score : null;
  const scorePasses = score !== null && input.min_score !== undefined ? score >= input.min_score : null;
  const findings: string[] = errorCodes.map((c) => ERROR_HELP[c] ?? `The provider reported ${c}.`);
  if (!secret)
    findings.unshift("No secret was available: the provider cannot verify the token without the site's secret key.");
  if (hostnameMatch === false)
    findings.push(`The token was solved on ${answer.hostname}, not on ${input.expected_hostname}.`);
  if (actionMatch === false) findings.push(`The token's action is ${answer.action}, not ${input.expected_action}.`);
  if (scorePasses === false) findings.push(`The score ${score} is below the required ${input.min_score}.`);
  const valid = answer.success === true && hostnameMatch !== false && actionMatch !== false && scorePasses !== false;
  if (valid) findings.push("The token is valid for this site.");
  return {
    provider: input.provider,
    valid,
    success: answer.success === true,
    hostname: answer.hostname ?? null,
    challenge_ts: answer.challenge_ts ?? null,
    action: answer.action ?? null,
    score,
    error_codes: errorCodes,
    checks: {
      hostname_match: hostnameMatch,
      action_match: actionMatch,
      score_passes: scorePasses,
      secret_supplied: Boolean(secret),
    },
    findings,
    source: { name: `${input.provider} siteverify`, url, latency_ms: Date.now() - started },
    checked_at: new Date().toISOString(),
  };
}
