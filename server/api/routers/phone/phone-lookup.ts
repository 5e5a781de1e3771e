// GET /phone/{number}: phone number validation, type and country.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { lookupPhone, maskedPhone } from "../../../phone/lookup";
import { MAX_PHONE_INPUT, phoneCountry, phoneInputProblem } from "../../../phone/parse";
import { phoneLookupSchema, type PhoneLookup } from "../../../phone/schemas";
import { meteredProcedure } from "../../trpc";

// Malformed input is refused by the schema, so before admission and free: what cannot be read as a number at all
// (letters, too long, an unknown country, a national number without one) is a 400; a readable number that is not
// valid in its plan is an answer (`valid: false`) and counts.
const input = z
  .object({
    number: z
      .string()
      .max(MAX_PHONE_INPUT * 3)
      .describe(
        "The number: E.164 (`+447400123456`; in a path, `+` may be sent as is or as %2B) or national with `country` (`07400 123456`)",
      ),
    country: z
      .string()
      .max(8)
      .optional()
      .describe(
        "ISO 3166-1 alpha-2 country a national number is read in (e.g. GB); not read for a number with +, but still checked",
      ),
  })
  .superRefine((v, ctx) => {
    // An unknown country is the country's problem, named as such: refused whatever the number, though it is read
    // only for a national number (a parameter that is no country is a mistake worth saying, not a unit).
    if (v.country && !phoneCountry(v.country)) {
      ctx.addIssue({
        code: "custom",
        path: ["country"],
        message: `"${v.country}" is not an ISO 3166-1 alpha-2 country code: send one such as US or GB`,
      });
      return;
    }
    const problem = phoneInputProblem(v.number, v.country);
    if (problem) ctx.addIssue({ code: "custom", path: ["number"], message: `The number ${problem}.` });
  });

export const phoneLookupProcedure = meteredProcedure({
  capability: "full",
  endpoint: "phone.lookup",
  input,
  history: (_input, out: PhoneLookup) => ({
    target: maskedPhone(out.e164),
    summary: { valid: out.valid, type: out.type, country: out.country },
  }),
})
  .meta({
    openapi: {
      method: "GET",
      path: "/phone/{number}",
      tags: ["Phone"],
      summary: "Phone number validation, type and country",
      description:
        "Whether a phone number is valid in its country's numbering plan, its E.164 form, country and line type (mobile, fixed_line, " +
        "fixed_line_or_mobile where the plan cannot tell them apart as in the US and Canada, voip, toll_free, premium_rate, shared_cost, " +
        "personal, pager, uan, unknown), and whether its length is possible. Offline: read with libphonenumber-js (MIT) and its full (`max`) " +
        "metadata, Google libphonenumber's numbering plans (Apache-2.0); `sources` names the release. The type is what the plan assigns to " +
        "the number's range, not a carrier lookup: a ported or recycled number keeps its range's type. A number with `+` is read as E.164; a " +
        "national number needs `country`. 400 INVALID_REQUEST, free, for input that cannot be a number (letters, more than 40 characters or " +
        "17 digits, an unknown country, a national number without `country`); a readable number that is not valid answers 200 with " +
        "`valid: false` and counts.",
    },
  })
  .output(phoneLookupSchema)
  .query(({ input }) => lookupPhone(input.number, input.country));
