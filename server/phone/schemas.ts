// The phone lookup's answer (GET /phone/{number}) and the phone object of an assessment.
import { z } from "zod";
import { PHONE_TYPES } from "./parse";

export const phoneSourceSchema = z.object({
  name: z.literal("libphonenumber-js"),
  version: z.string().describe("The installed libphonenumber-js release, e.g. 1.13.16"),
  metadata: z.literal("max").describe("Its full metadata set, the one that tells line types apart"),
  license: z.string(),
});

/** The facts of a number, shared by the lookup and /assess. */
export const phoneFactsSchema = z.object({
  valid: z.boolean().describe("The number exists in its country's numbering plan (length and prefix)"),
  e164: z.string().nullable().describe("The number in E.164 (+ and up to 15 digits); null when not valid"),
  country: z
    .string()
    .nullable()
    .describe("ISO 3166-1 alpha-2 of the numbering plan; null when not valid or non-geographic (+800 and the like)"),
  type: z
    .enum(PHONE_TYPES)
    .describe(
      "Line type by the numbering plan: `fixed_line_or_mobile` where the plan cannot tell them apart (the US, Canada); `unknown` when not valid or not told",
    ),
  possible: z.boolean().describe("The number has a possible length for its country (weaker than `valid`)"),
});

export const phoneLookupSchema = z.object({
  number: z.string().describe("The number as sent (trimmed)"),
  ...phoneFactsSchema.shape,
  sources: z.array(phoneSourceSchema).describe("The numbering-plan data the answer was read from"),
  checked_at: z.string(),
});

export type PhoneLookup = z.infer<typeof phoneLookupSchema>;
