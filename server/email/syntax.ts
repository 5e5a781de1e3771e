// Address syntax (RFC 5321/5322 as mail servers accept it, plus RFC 6531 UTF-8 local parts). The canonical mailbox
// of a valid address (what two spellings of one inbox have in common) is ./canonical.ts.
import { checkDomainName } from "../dns/names";

export type ParsedAddress =
  | { valid: true; localPart: string; domain: string; quotedLocalPart: boolean; utf8LocalPart: boolean }
  | { valid: false; reason: string; localPart: string | null; domain: string | null };

const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~\\-\\u0080-\\uFFFF]";
const DOT_ATOM = new RegExp(`^${ATEXT}+(\\.${ATEXT}+)*$`, "u");
const QUOTED = /^"([\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"$/;

export function parseAddress(input: string): ParsedAddress {
  const email = input.trim();
  const at = email.lastIndexOf("@");
  if (at < 0) return { valid: false, reason: "The address has no @.", localPart: null, domain: null };
  const localPart = email.slice(0, at);
  const rawDomain = email.slice(at + 1);
  const fail = (reason: string): ParsedAddress => ({
    valid: false,
    reason,
    localPart: localPart || null,
    domain: rawDomain || null,
  });
  if (!localPart) return fail("The part before the @ is empty.");
  if (!rawDomain) return fail("The domain after the @ is empty.");
  const quoted = localPart.startsWith('"');
  if (quoted ? !QUOTED.test(localPart) : !DOT_ATOM.test(localPart)) {
    return fail(
      localPart.includes("..") || localPart.startsWith(".") || localPart.endsWith(".")
        ? "The local part has a leading, trailing or doubled dot."
        : "The local part contains characters that are not allowed unquoted (such as spaces, commas, brackets or a second @).",
    );
  }
  if (Buffer.byteLength(localPart, "utf8") > 64) return fail("The local part is longer than 64 octets (RFC 5321).");
  if (rawDomain.startsWith("["))
    return fail("Address literals ([192.0.2.1]) are not accepted: mainstream mail systems refuse them.");
  const d = checkDomainName(rawDomain);
  if (!d.ok) return fail(`Invalid domain: ${d.reason}`);
  if (!d.name.includes(".") || d.name.includes("_"))
    return fail("The domain must be a host name with at least two labels.");
  const tld = d.name.slice(d.name.lastIndexOf(".") + 1);
  if (!/^([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(tld)) return fail(`"${tld}" is not a valid top-level domain.`);
  if (Buffer.byteLength(localPart, "utf8") + 1 + d.name.length > 254)
    return fail("The address is longer than 254 octets (RFC 5321).");
  return {
    valid: true,
    localPart,
    domain: d.name,
    quotedLocalPart: quoted,
    utf8LocalPart: /[^\x00-\x7f]/.test(localPart),
  };
}
