// GET /passwords/range/{prefix}: common passwords by k-anonymity, in the Pwned Passwords range API's format.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import {
  commonPasswordCount,
  PADDED_LINES,
  PASSWORD_LIST_SOURCE,
  passwordRange,
  PREFIX_PATTERN,
} from "../../../passwords/common";
import { setting } from "../../../env";
import { authenticated, withinBurstLimit } from "../../trpc";

/** Requests per workspace per minute: a range is cheap, but a client should not walk all 1,048,576 prefixes fast. */
const rangeRateLimit = () => setting("SERVICE_PASSWORDS_RANGE_RATE_LIMIT");

export const passwordRangeProcedure = authenticated
  .meta({
    // Unmetered, but it keeps its capability check (spec Limits rule 5), like the other intelligence reads.
    requires: { capability: "full", subject: "The common-password check needs" },
    // The bucket is the workspace's; the prefix is never part of a bucket, a log line or a history entry.
    produces: "text/plain",
    rateLimit: {
      name: "passwords-range",
      limit: rangeRateLimit,
      windowSeconds: () => 60,
      what: "password ranges",
    },
    openapi: {
      method: "GET",
      path: "/passwords/range/{prefix}",
      tags: ["Passwords"],
      summary: "Common passwords by hash prefix (k-anonymity, Pwned Passwords format)",
      description:
        "Send the first 5 hex characters of the SHA-1 of a password (either case); the answer is `text/plain`: one line per listed " +
        "password whose hash starts with them, `SUFFIX:COUNT` (the other 35 hex characters in upper case, a colon, a count), lines " +
        "separated by CRLF, as the Pwned Passwords range API answers, so its clients work by changing the base address. Look for your " +
        "own suffix: the password and its full hash never leave your side. With the request header `Add-Padding: true` the answer " +
        `is padded with random suffixes of count 0 to at least ${PADDED_LINES} lines (800 to 1,000), in suffix order, so its size ` +
        "tells nothing (from a server: a browser's cross-origin call may send only Authorization, Content-Type, X-API-Key and " +
        "Accept, so it gets the unpadded answer). What the list is, honestly: the " +
        `${commonPasswordCount().toLocaleString("en-US")} most common passwords that @zxcvbn-ts/language-common ` +
        `${PASSWORD_LIST_SOURCE.version} (MIT, released ${PASSWORD_LIST_SOURCE.released}; the zxcvbn strength estimator's ` +
        "dictionary, from lists of leaked passwords) ships, lower case, in order of frequency, each also listed with a capital first " +
        "letter and in capitals (`Password1`, `PASSWORD1`: hash the password as typed). It is not every " +
        "breached password (Have I Been Pwned holds hundreds of millions): an absent suffix means only that the password is not " +
        "among the most common ones. It has no breach counts: COUNT is the password's commonness (the list's size minus its rank, so " +
        "123456 has the highest and every listed password at least 1); treat any COUNT above 0 as a password to refuse (NIST SP " +
        "800-63B 3.1.1.2). A prefix with no listed password answers an empty body. The burst limit per workspace is " +
        "SERVICE_PASSWORDS_RANGE_RATE_LIMIT requests a minute (default 1,200). 400 INVALID_REQUEST for anything but 5 hex characters. " +
        "Send the result to /assess as `password_compromised`.",
    },
  })
  .input(
    z.object({
      prefix: z
        .string()
        .regex(PREFIX_PATTERN, "prefix must be the first 5 hex characters (0-9, A-F) of the password's SHA-1")
        .describe('The first 5 hex characters of the password\'s SHA-1, e.g. 5BAA6 for "password"'),
    }),
  )
  .use(withinBurstLimit)
  .output(z.string().describe("text/plain: SUFFIX:COUNT lines separated by CRLF"))
  .query(({ ctx, input }) => {
    ctx.resHeaders.set("Content-Type", "text/plain; charset=utf-8");
    const pad = ctx.requestHeaders.get("add-padding")?.trim().toLowerCase() === "true";
    return passwordRange(input.prefix, pad);
  });
