// zod contracts of POST /assess: the request of DESIGN.md and the result. Everything checkable without I/O is
// checked here, so a bad request is 400 before any unit is reserved.
import { z } from "zod";
import { countryCodeOf } from "../countries";
import { ipAddress } from "../net/schemas";
import { parseAddress } from "../email/syntax";
import { deviceSignalsSchema } from "../device/schemas";
import { phoneCountry } from "../phone/parse";
import { phoneFactsSchema } from "../phone/schemas";
import { privacySnakeSchema } from "../ip/privacy-schema";
import { paymentSchema } from "./payment";
import { ASSESSED_EVENTS, DECISIONS, RISK_LEVELS } from "../scoring/score";
export { ASSESSED_EVENTS, DECISIONS, RISK_LEVELS };

const email = z
  .string()
  .trim()
  .min(3)
  .max(320)
  .superRefine((s, ctx) => {
    const p = parseAddress(s);
    if (!p.valid) ctx.addIssue({ code: "custom", message: `email is not a valid address: ${p.reason}` });
  });

/** The characters of /assess's `phone`, at most 40 of them. */
const PHONE_CHARACTERS = /^\+?[0-9 ().\-/]{1,40}$/;

const metadataValue = z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]);

export const ASSESS_STATUSES = ["succeeded", "failed"] as const;

export const assessRequestSchema = z
  .object({
    event: z
      .enum(ASSESSED_EVENTS)
      .describe(
        "What the user is doing: signup, login, checkout, form, api, or payment (a card payment attempt, as your processor answered it)",
      ),
    ip: ipAddress.describe("The end user's IP address (IPv4 or IPv6), not your server's"),
    email: email.optional().describe("The user's email address; syntax is validated (400 when invalid)"),
    user_agent: z.string().max(1024).optional().describe("The end user's User-Agent header"),
    device_id: z.string().trim().min(1).max(256).optional().describe("A stable device identifier from your client"),
    device: deviceSignalsSchema
      .optional()
      .describe(
        "Browser signals from /device.js (as POST /device/check takes them): automation, consistency and per-device velocity move the score",
      ),
    user_id: z.string().trim().min(1).max(256).optional().describe("Your identifier of the account"),
    phone: z
      .string()
      .trim()
      // The punctuation GET /phone/{number} reads too (server/phone/parse.ts): "030/1234567" is a number in /assess as well.
      .regex(PHONE_CHARACTERS, "phone must be digits (with spaces, ( ) . - /) and an optional leading +")
      // As GET /phone/{number} (phoneInputProblem): 2 digits make a value a number, if an invalid one ("911" is a
      // signal, phone_invalid), and fewer are no number at all (said once: not beside the characters' refusal).
      .refine(
        (s) => !PHONE_CHARACTERS.test(s) || (s.match(/\d/g)?.length ?? 0) >= 2,
        "phone must hold at least 2 digits",
      )
      .optional()
      .describe(
        "The user's phone number: E.164 (+447400123456), or national (07400 123456) read in `phone_country`, else in the IP address's country. An invalid number is a signal (`phone_invalid`), not a 400; only a value that is not phone-like is refused",
      ),
    phone_country: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{2}$/, "phone_country must be an ISO 3166-1 alpha-2 code")
      .transform((s) => s.toUpperCase())
      .refine((c) => phoneCountry(c) !== null, "phone_country is not a country with a numbering plan")
      .optional()
      .describe("The country a national `phone` is read in (ISO 3166-1 alpha-2); default the IP address's country"),
    password_compromised: z
      .boolean()
      .optional()
      .describe(
        "Your own check of the password the user typed against common or breached passwords (e.g. GET /passwords/range/{prefix}, k-anonymity: send us the verdict, never the password). true is the signal `password_compromised` and the rules fact of that name",
      ),
    billing_country: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{2}$/, "billing_country must be an ISO 3166-1 alpha-2 code")
      .refine((s) => countryCodeOf(s) !== null, "billing_country is not a country (ISO 3166-1 alpha-2)")
      .transform((s) => countryCodeOf(s)!)
      .optional()
      .describe(
        "The billing address's country (ISO 3166-1 alpha-2, any case); compared with the IP's country. UK, which ISO 3166-1 reserves for the United Kingdom, is read as GB; a code that names no country (XX, ZZ, EU) or one ISO has withdrawn (SU, DD, YU) is 400",
      ),
    amount: z.number().finite().min(0).max(1e12).optional().describe("Transaction amount in major units of `currency`"),
    currency: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{3}$/, "currency must be an ISO 4217 code")
      .transform((s) => s.toUpperCase())
      .optional(),
    metadata: z
      .record(z.string().max(64), metadataValue)
      .refine((m) => Object.keys(m).length <= 50, "metadata holds at most 50 keys")
      .optional()
      .describe("Up to 50 flat key/value pairs for your own correlation; accepted but neither scored nor stored"),
    payment: paymentSchema
      .optional()
      .describe(
        "For checkout and payment events: the card attempt as your processor answered it, without the card: `bin` (first 6 to 8 digits), `last4`, `fingerprint`?, `amount` (minor units), `currency`, `status` (succeeded, failed or declined), `decline_code`?. Cards and declines per device, address, account and card feed card-testing facts and signals. A full card number anywhere in it is 400 INVALID_INPUT, and is neither stored nor logged",
      ),
    status: z
      .enum(ASSESS_STATUSES)
      .optional()
      .describe(
        "For login and signup events: whether the attempt succeeded (default) or failed (wrong password, refused signup). Failed attempts are stored and counted (`user.failed_logins_1h`, `ip.failed_users_1h`: credential stuffing); the account's baseline learns only from succeeded ones",
      ),
  })
  .superRefine((r, ctx) => {
    if (r.status === "failed" && r.event !== "login" && r.event !== "signup")
      ctx.addIssue({
        code: "custom",
        path: ["status"],
        message: "status failed applies to login and signup events only",
      });
    if (r.payment && r.event !== "checkout" && r.event !== "payment")
      ctx.addIssue({
        code: "custom",
        path: ["payment"],
        message: "payment applies to checkout and payment events only",
      });
  });

export type AssessRequest = z.output<typeof assessRequestSchema>;

export const signalSchema = z.object({
  code: z.string(),
  weight: z
    .number()
    .int()
    .describe("Points this signal added to the score, from the weight set named by the result's `weights`"),
  reason: z.string().describe("What was found and what it means"),
  evidence: z.array(z.string()).describe("Names of the sources behind the signal"),
});

const sourceSchema = z.object({
  name: z.string(),
  origin: z.string().describe("shipped, refreshed, embedded, dns or workspace"),
  fetched_at: z.string().nullable().describe("When the data was fetched or built; null when never filled"),
});

const accountSummarySchema = z.object({
  key: z.enum(["user_id", "email"]).describe("What identifies the account: the request's user_id, else its email"),
  seen_before: z.boolean().describe("The account has a succeeded assessment in the last 90 days"),
  first_seen_days: z.number().int().nullable().describe("Days since its first succeeded assessment (90-day window)"),
  assessments_30d: z.number().int().describe("Its succeeded assessments in the last 30 days"),
  new_country: z.boolean().nullable().describe("The IP's country is new for the account; null when unknown"),
  new_asn: z.boolean().nullable().describe("The IP's network is new for the account; null when unknown"),
  new_device: z.boolean().nullable().describe("The device_id is new for the account; null without a device_id"),
  countries_30d: z.number().int().describe("Distinct countries of the account in 30 days, this one included"),
  failed_logins_1h: z.number().int().describe("Failed attempts of the account in the last hour, this one included"),
  success_after_failures: z.boolean().describe("Succeeded after 3 or more failures since the last success"),
  travel: z
    .object({
      from_country: z.string().nullable().describe("Country of the last succeeded login"),
      km: z.number().int().describe("Distance from the last succeeded login's location"),
      minutes: z.number().int().describe("Minutes since the last succeeded login"),
      kmh: z.number().describe("The speed that travel needs"),
      impossible: z.boolean().describe("Faster than 1,000 km/h over at least 100 km, both locations real"),
      note: z
        .string()
        .nullable()
        .describe("Why a fast speed is not evidence (VPN, Tor, relay or hosting address; within city accuracy)"),
    })
    .nullable()
    .describe("Travel since the last succeeded login; null without one or without coordinates"),
});

const linkedAccountsSchema = z.object({
  accounts_30d: z
    .number()
    .int()
    .describe("Distinct other accounts sharing this request's device, mailbox, phone number or card in 30 days"),
  by: z
    .array(
      z.object({
        kind: z.enum(["device", "email", "phone", "card"]).describe("What they share"),
        accounts_30d: z.number().int().describe("Other accounts sharing it in 30 days"),
        names: z.array(z.string()).describe("The most recent of them (user_id, else email), at most 5"),
      }),
    )
    .describe("By what links them; GET /users/{user_id} lists every linked account"),
});

const paymentSummarySchema = z.object({
  bin: z.string(),
  last4: z.string(),
  brand: z.string().nullable().describe("Card brand from the BIN's range (visa, mastercard, ...); null when unknown"),
  brand_name: z.string().nullable().describe("The brand as people write it (Visa, Mastercard)"),
  issuer_country: z.null().describe("Always null: no BIN table is shipped, so the issuing bank's country is unknown"),
  funding: z.null().describe("Always null: whether the card is credit, debit or prepaid is unknown"),
  note: z.string().describe("What the BIN told and what it could not"),
  amount: z.number().int().describe("Minor units"),
  currency: z.string(),
  status: z.string(),
  decline_code: z.string().nullable(),
});

export const assessResultSchema = z.object({
  request_id: z.string(),
  event: z.enum(ASSESSED_EVENTS),
  score: z.number().int().min(0).max(100),
  risk_level: z.enum(RISK_LEVELS),
  decision: z.enum(DECISIONS),
  decided_by: z.enum(["score", "rule"]).describe("Whether the score's decision stood or a matching rule overrode it"),
  weights: z
    .enum(["default", "learned"])
    .describe(
      "The signal weights the score used: the default table, or the weights learned from this workspace's outcome labels (GET /weights)",
    ),
  signals: z.array(signalSchema),
  rules: z
    .array(z.object({ id: z.string(), name: z.string(), action: z.enum(DECISIONS) }))
    .describe("Every enabled active rule that matched, in evaluation order; the first decides"),
  shadow_rules: z
    .array(z.object({ id: z.string(), name: z.string(), action: z.enum(DECISIONS) }))
    .describe(
      "Every enabled shadow rule that matched, in evaluation order, with the action it would have taken; never changes the decision",
    ),
  rule_errors: z
    .array(z.object({ id: z.string(), name: z.string(), message: z.string() }))
    .describe(
      "Rules that could not be evaluated for this assessment and were skipped (e.g. a division by zero), with why",
    ),
  ip: z.object({
    address: z.string(),
    scope: z.string(),
    country: z.string().nullable(),
    asn: z.number().int().nullable(),
    network_type: z
      .string()
      .describe("anonymizer, service, hosting, residential or unknown (as `network.type` on /ip/{ip})"),
    tor_exit: z.boolean().nullable(),
    hosting: z.boolean().describe("A cloud, hosting, platform or CDN network"),
    privacy: privacySnakeSchema,
  }),
  email: z
    .object({
      address: z.string().describe("The address as sent, lower case: what is stored and shown"),
      normalized: z
        .string()
        .describe(
          "The canonical mailbox velocity, the account, lists and linking key on: Gmail dots, Proton dots, underscores and hyphens and +tags of providers that document them removed, googlemail.com as gmail.com (a.l.i.c.e+1@googlemail.com is alice@gmail.com)",
        ),
      subaddressed: z
        .boolean()
        .describe("The address carries a tag its provider delivers to the base mailbox (+tag; Yahoo's -keyword)"),
      domain: z.string(),
      disposable: z.boolean(),
      free_provider: z.boolean(),
      role_account: z.boolean(),
      mx: z.enum(["present", "null_mx", "implicit", "absent", "domain_not_found", "unavailable", "not_checked"]),
    })
    .nullable(),
  phone: z
    .object({
      number: z.string().describe("The number as sent"),
      ...phoneFactsSchema.shape,
      country_matches_ip: z
        .boolean()
        .nullable()
        .describe(
          "The number's country is the IP address's, or shares its numbering plan (a Guernsey, Jersey or Isle of Man +44 number in the UK; a Puerto Rico, US Virgin Islands, Guam, American Samoa or Northern Mariana Islands +1 number in the US; ...); null when either is unknown",
        ),
    })
    .nullable()
    .describe("The request's `phone` as the numbering plans read it (libphonenumber-js); null without one"),
  device: z
    .object({
      device_id: z.string(),
      verdict: z.enum(["automated", "suspicious", "human"]),
      risk_score: z.number().int(),
    })
    .nullable()
    .describe("The diagnosis of the `device` object (null without one); its signals are among `signals`"),
  account: accountSummarySchema
    .nullable()
    .describe(
      "The account's own history (by `user_id`, else the email; null with neither): its baseline of the last 90 days of succeeded assessments, failed attempts and travel since its last succeeded login. Its signals are among `signals`",
    ),
  linked_accounts: linkedAccountsSchema
    .nullable()
    .describe(
      "Other accounts of this workspace sharing the request's device, canonical mailbox, phone number or card in the last 30 days (null without an account: no user_id or email). Its signal is `linked_accounts`",
    ),
  payment: paymentSummarySchema
    .nullable()
    .describe("The payment as stored: BIN, last four and what the BIN tells (null without one)"),
  sources: z.array(sourceSchema),
  checked_at: z.string(),
});

export type AssessResult = z.infer<typeof assessResultSchema>;
export type Signal = z.infer<typeof signalSchema>;
export type AccountSummary = z.infer<typeof accountSummarySchema>;
export type SourceRef = z.infer<typeof sourceSchema>;
export type { Decision, RiskLevel } from "../scoring/score";
