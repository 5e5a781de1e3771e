// CAPTCHA providers whose siteverify APIs the diagnostic can call. Base URLs come from configuration so tests
// (and private deployments) can point them elsewhere; secrets come from the request or from configuration.
import { setting, settingOf } from "../env";
export const CAPTCHA_PROVIDERS = ["turnstile", "hcaptcha", "recaptcha"] as const;
export type CaptchaProvider = (typeof CAPTCHA_PROVIDERS)[number];

const DEFAULT_VERIFY_URL: Record<CaptchaProvider, string> = {
  turnstile: "https://challenges.cloudflare.com/turnstile/v0/siteverify",
  hcaptcha: "https://api.hcaptcha.com/siteverify",
  recaptcha: "https://www.google.com/recaptcha/api/siteverify",
};

export function verifyUrl(p: CaptchaProvider): string {
  return settingOf("SERVICE_CAPTCHA_<PROVIDER>_VERIFY_URL", p.toUpperCase()) ?? DEFAULT_VERIFY_URL[p];
}

export function configuredSecret(p: CaptchaProvider): string | null {
  return settingOf("SERVICE_CAPTCHA_<PROVIDER>_SECRET", p.toUpperCase());
}

export function captchaTimeoutMs(): number {
  return setting("SERVICE_CAPTCHA_TIMEOUT_MS");
}
