// What several procedures of the captcha router share (schemas, helpers), or what other modules import from it.
import { z } from "zod";
import { CAPTCHA_PROVIDERS } from "../../../captcha/providers";
import { runCaptchaTest } from "../../../captcha/verify";
import { ipAddress } from "../../schemas";
import { meteredProcedure } from "../../trpc";

export const input = z.object({
  provider: z.enum(CAPTCHA_PROVIDERS),
  token: z.string().min(1).max(4096),
  secret: z.string().min(1).max(512).optional(),
  remote_ip: ipAddress.optional(),
  expected_hostname: z.string().trim().min(1).max(253).optional(),
  expected_action: z.string().trim().min(1).max(100).optional(),
  min_score: z.number().min(0).max(1).optional(),
});

export const output = z.object({
  provider: z.enum(CAPTCHA_PROVIDERS),
  valid: z.boolean().describe("success, and every expectation given (hostname, action, minimum score) holds"),
  success: z.boolean().describe("the provider's own verdict"),
  hostname: z.string().nullable(),
  challenge_ts: z.string().nullable(),
  action: z.string().nullable(),
  score: z.number().nullable().describe("reCAPTCHA v3 score, 0..1"),
  error_codes: z.array(z.string()),
  checks: z.object({
    hostname_match: z.boolean().nullable(),
    action_match: z.boolean().nullable(),
    score_passes: z.boolean().nullable(),
    secret_supplied: z.boolean(),
  }),
  findings: z.array(z.string()).describe("what the outcome means, in sentences a person can act on"),
  source: z.object({ name: z.string(), url: z.string(), latency_ms: z.number() }),
  checked_at: z.string(),
});

export const DESCRIPTION =
  "Verifies a CAPTCHA token (Cloudflare Turnstile, hCaptcha or Google reCAPTCHA) with its provider's siteverify API and explains the outcome: the provider's verdict and error codes in plain words, whether the hostname and action match what the site expects, and the reCAPTCHA v3 score against `min_score`. The site's `secret` may be sent in the body (used for this one call, never stored) or configured on the server (SERVICE_CAPTCHA_<PROVIDER>_SECRET). A token can be verified only once: a second test of the same token reports `timeout-or-duplicate`. 503 when the provider is unreachable (its unit is given back).";

export const procedure = (path: "/captcha/test" | "/v1/captcha/test") =>
  meteredProcedure({
    capability: "full",
    endpoint: "captcha.test",
    input,
    history: (i, out: z.infer<typeof output>) => ({
      target: i.provider,
      summary: { valid: out.valid, error_codes: out.error_codes },
    }),
  })
    .meta({
      openapi: {
        method: "POST",
        path,
        tags: ["Device and CAPTCHA"],
        summary: "CAPTCHA diagnostic",
        description: DESCRIPTION,
      },
    })
    .output(output)
    .mutation(({ input: i }) => runCaptchaTest(i));
