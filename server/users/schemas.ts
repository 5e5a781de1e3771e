// zod contracts of GET /users/{user_id} (server/users/profile.ts): snake_case fields as the rest of the API.
import { z } from "zod";

const kind = z.enum(["device", "email", "phone", "card"]);

/**
 * A payment as an account's history lists it (the user page, the review case's history): what the assessment stored
 * of the card attempt, never the card.
 */
export const paymentLineSchema = z.object({
  bin: z.string(),
  last4: z.string(),
  brand_name: z.string().nullable(),
  amount: z.number().int().describe("Minor units"),
  currency: z.string(),
  status: z.string(),
  decline_code: z.string().nullable(),
});

export type PaymentLine = z.infer<typeof paymentLineSchema>;

const line = paymentLineSchema.shape;
/** The user page's payment: the line with the brand's code too, in the order the document has always listed. */
const paymentSchema = z
  .object({
    bin: line.bin,
    last4: line.last4,
    brand: z.string().nullable(),
    brand_name: line.brand_name,
    amount: line.amount,
    currency: line.currency,
    status: line.status,
    decline_code: line.decline_code,
  })
  .passthrough();

const assessmentSchema = z.object({
  request_id: z.string(),
  event: z.string(),
  status: z.enum(["succeeded", "failed"]),
  score: z.number().int(),
  risk_level: z.string(),
  decision: z.string(),
  ip: z.string().nullable(),
  country: z.string().nullable(),
  device_id: z.string().nullable(),
  email: z.string().nullable().describe("The address as sent"),
  payment: paymentSchema
    .nullable()
    .describe("The payment's BIN, last four, brand, amount and status, when one was sent"),
  created_at: z.string(),
});

export const linkedAccountSchema = z.object({
  account: z.string().describe("The linked account's user_id, else its email address"),
  key: z.enum(["user_id", "email"]),
  links: z
    .array(z.object({ kind, value: z.string().describe("The shared device_id, mailbox, phone number or card") }))
    .describe("What links it to this account"),
  last_linked_at: z
    .string()
    .describe(
      "When the linked account last used one of them, to the minute (a use within the minute of the time shown leaves it as it is)",
    ),
});

export const userProfileSchema = z.object({
  user_id: z.string().describe("The account as asked for"),
  key: z
    .enum(["user_id", "email"])
    .describe(
      "`user_id`: the account of the assessments sent with this user_id; `email`: of those sent without one, by this address's canonical mailbox",
    ),
  other_key: z
    .enum(["user_id", "email"])
    .nullable()
    .describe(
      "The other kind of account this same name also opens, or null: an email address sent as a user_id and the account of assessments sent without a user_id from that mailbox are two accounts (open the other with `?key=`)",
    ),
  baseline: z
    .object({
      first_seen_at: z.string().nullable().describe("First succeeded assessment in the last 90 days"),
      last_seen_at: z.string().nullable().describe("Last succeeded assessment in the last 90 days"),
      assessments_30d: z.number().int().describe("Succeeded assessments in 30 days"),
      failed_30d: z.number().int().describe("Failed logins and signups in 30 days"),
      countries_30d: z.array(z.string()).describe("Countries of its succeeded assessments in 30 days"),
      devices_30d: z.number().int().describe("Distinct devices of its succeeded assessments in 30 days"),
      ips_30d: z.number().int().describe("Distinct IP addresses of its succeeded assessments in 30 days"),
    })
    .describe("What the account's own history looks like (the baseline /assess compares each request with)"),
  identifiers: z
    .array(
      z.object({
        kind,
        value: z.string(),
        last_seen_at: z
          .string()
          .describe(
            "When the account last used it, to the minute (a use within the minute of the time shown leaves it as it is)",
          ),
        phone: z
          .object({
            valid: z.boolean(),
            type: z
              .string()
              .nullable()
              .describe("mobile, fixed_line, fixed_line_or_mobile, voip, ...; null when invalid"),
            country: z.string().nullable(),
          })
          .nullable()
          .describe("For a phone number: what the numbering plans say of it (libphonenumber-js); null otherwise"),
      }),
    )
    .describe(
      "Its devices, canonical mailboxes, phone numbers and cards (by fingerprint; one sent without it is only among the payments) of the last 30 days",
    ),
  linked_accounts: z
    .array(linkedAccountSchema)
    .describe("Other accounts that shared one of them in the last 30 days, most recent first (at most 50)"),
  assessments: z.object({
    items: z.array(assessmentSchema),
    next_cursor: z.string().nullable().describe("Pass as `cursor` for older assessments; null at the end"),
  }),
});

export type UserProfile = z.infer<typeof userProfileSchema>;
export type UserAssessment = z.infer<typeof assessmentSchema>;
