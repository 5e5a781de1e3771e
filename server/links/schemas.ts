// The contract of POST /go/links: request and answer, snake_case like the rest of the API's bodies.
import { z } from "zod";
import { expiryTimestampSchema } from "../timestamps";
import { MAX_URL_LENGTH, parseDestination } from "./normalize";

export const linkCreateSchema = z
  .object({
    url: z
      .string()
      .describe(`Absolute http(s) URL, at most ${MAX_URL_LENGTH} characters, without user name or password.`),
    // Read as every date field is (server/timestamps.ts): a date or a date-time with Z or an offset, in the future.
    expires_at: expiryTimestampSchema
      .nullish()
      .describe(
        "Optional ISO 8601 date or date-time with Z or an offset, in the future and at most 9999-12-31; the link answers 410 from then on and is never reused.",
      ),
  })
  .superRefine((v, ctx) => {
    const d = parseDestination(v.url);
    if ("error" in d) ctx.addIssue({ code: "custom", path: ["url"], message: d.error.replace(/^url: /, "") });
  });

export const linkSafetySchema = z.object({
  status: z.enum(["not_listed", "listed", "incomplete", "skipped"]),
  listed_on: z.array(z.string()),
  sources: z.array(z.string()).describe("Domain blocklist zones asked."),
  checked_at: z.string().nullable(),
  reason: z.string().nullable(),
});

export const linkCreatedSchema = z.object({
  id: z.string(),
  slug: z.string(),
  short_url: z.string(),
  url: z.string().describe("The destination the link redirects to (as first submitted, when reused)."),
  normalized_url: z.string().describe("The reuse key: scheme and host lowercased, default port and fragment dropped."),
  expires_at: z.string().nullable(),
  created_at: z.string(),
  reused: z.boolean(),
  scope: z.enum(["workspace", "anonymous"]),
  safety: linkSafetySchema,
});

export type LinkCreated = z.infer<typeof linkCreatedSchema>;

export const linkIdSchema = z.string().trim().min(1).max(64).describe("Link id (`lnk_…`)");

/** A workspace's link as GET /go/links lists it: where it goes, what the blocklists said, and how it was used. */
export const linkRecordSchema = z.object({
  id: z.string(),
  slug: z.string(),
  short_url: z.string(),
  url: z.string().describe("The destination the link redirects to."),
  status: z
    .enum(["active", "expired", "disabled"])
    .describe("`active` redirects; `expired` and `disabled` answer 410 at the short URL."),
  clicks: z.number().int().describe("Redirects served (visits refused after expiry or disabling are not counted)."),
  safety: linkSafetySchema
    .nullable()
    .describe(
      "The destination's blocklist verdict at creation, or at its latest reuse; null for links made before verdicts were kept.",
    ),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  disabled_at: z.string().nullable(),
});

export type LinkRecord = z.infer<typeof linkRecordSchema>;
