// What several procedures of the rdap router share (schemas, helpers), or what other modules import from it.
import { domainToASCII } from "node:url";
import { z } from "zod";
import { splitPublicSuffix } from "../../../feeds/public-suffix";

export const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A host name with a registrable domain (letters, digits, hyphens; IDNs in Unicode or punycode). */
export const domainName = z
  .string()
  .trim()
  .max(253)
  // domainToASCII silently drops tabs and newlines, so refuse every control or space character first.
  .refine((s) => !/[\u0000-\u0020\u007f-\u009f]/.test(s), { message: "must not contain spaces or control characters" })
  .transform((s) => s.replace(/\.$/, "").toLowerCase())
  .refine(
    (s) => {
      const ascii = domainToASCII(s);
      return (
        !!ascii &&
        ascii.length <= 253 &&
        ascii.split(".").length >= 2 &&
        ascii.split(".").every((l) => LABEL.test(l)) &&
        splitPublicSuffix(ascii)?.registrableDomain != null
      );
    },
    { message: "must be a domain name under a public suffix, e.g. example.com" },
  )
  // Later stages see the checked ASCII form, never the raw input.
  .transform((s) => domainToASCII(s));
