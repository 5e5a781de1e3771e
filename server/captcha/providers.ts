// CAPTCHA providers whose siteverify APIs the diagnostic can call. Base URLs come from configuration so tests
// (and private deployments) can point them elsewhere; secrets come from the request or from configuration.
import { numberSetting } from "../env";
export const CAPTCHA_PROVIDERS = ["turnstile", "hcaptcha", "recaptcha"] as const;
export type CaptchaProvider = (typeof CAPTCHA_PROVIDERS)[number];

const DEFAULT_VERIFY_URL: Record<CaptchaProvider, string> = {
  turnstile: "https://challenges.cloudflare.com/turnstile/v0/siteverify",
  hcaptcha: "https://api.hcaptcha.com/siteverify",
  recaptcha: "https://www.google.com/recaptcha/api/siteverify",
};

const envName = (p: CaptchaProvider, what: string) => `SERVICE_CAPTCHA_${p.toUpperCase()}_${what}`;

export function verifyUrl(p: CaptchaProvider): string {
  return process.env[envName(p, "VERIFY_URL")]?.trim() || DEFAULT_VERIFY_URL[p];
}

export function configuredSecret(p: CaptchaProvider): string | null {
  return process.env[envName(p, "SECRET")]?.trim() || null;
}

export function captchaTimeoutMs(): number {
  return numberSetting("SERVICE_CAPTCHA_TIMEOUT_MS", 5000, { min: 200, max: 30_000 });
}
