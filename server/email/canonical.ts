// The canonical mailbox of an email address: what every spelling of one inbox has in common, so velocity, per-user
// baselines, named lists and account linking count "a.l.i.c.e+1@gmail.com", "alice+2@googlemail.com" and
// "ALICE@gmail.com" as one person (issue 45). Only providers that document the rule are in the table: stripping a
// "+tag" at a domain that does not deliver it to the same inbox would merge two real people. The raw address is still
// what is stored and shown; this is the key things are counted and matched under.
import { parseAddress } from "./syntax";

interface ProviderRule {
  /** The character that starts a tag the provider delivers to the base mailbox. */
  separator: "+" | "-";
  /** Characters the provider ignores in the local part (Gmail's dots; Proton's dots, underscores and hyphens). */
  ignored?: { characters: RegExp; words: string };
  /** The domain this one is an alias of (the same mailboxes under another name). */
  aliasOf?: string;
}

const GMAIL: ProviderRule = { separator: "+", ignored: { characters: /\./g, words: "dots" } };
const PLUS: ProviderRule = { separator: "+" };
const PROTON: ProviderRule = {
  separator: "+",
  ignored: { characters: /[._-]/g, words: "dots, underscores and hyphens" },
};
const YAHOO: ProviderRule = { separator: "-" };

/**
 * Outlook.com's consumer domains outside .com (hotmail.co.uk and the like), with the .com ones' "+" rule. Appending
 * a domain here needs a migration that backfills the events stored at it (as
 * 20261128070500_email_normalized_microsoft_national and 20261129062000_email_normalized_national_outlook_yahoo do).
 */
export const MICROSOFT_NATIONAL = [
  "hotmail.co.uk",
  "hotmail.fr",
  "hotmail.de",
  "hotmail.it",
  "hotmail.es",
  "live.co.uk",
  "live.fr",
  "live.de",
  "live.it",
  "live.nl",
  "live.ca",
  "outlook.fr",
  "outlook.de",
  "outlook.es",
  "outlook.it",
  "outlook.co.uk",
  "outlook.at",
  "outlook.be",
  "outlook.ie",
  "outlook.dk",
  "outlook.pt",
  "outlook.jp",
  "outlook.in",
  "outlook.co.nz",
  "outlook.com.au",
  "outlook.com.br",
  "outlook.com.ar",
  "outlook.com.tr",
  "hotmail.be",
  "hotmail.ca",
  "hotmail.at",
  "hotmail.ie",
  "hotmail.dk",
  "hotmail.co.nz",
  "hotmail.com.au",
  "hotmail.com.br",
  "hotmail.com.ar",
  "hotmail.com.mx",
  "hotmail.com.tr",
  "live.be",
  "live.es",
  "live.com.ar",
  "live.com.mx",
] as const;

/**
 * Yahoo Mail's national domains (yahoo.co.uk, yahoo.fr, ...): one Yahoo service with yahoo.com's "-keyword"
 * disposable addresses, each its own domain. Yahoo! JAPAN (yahoo.co.jp) is another company's service and is not here.
 */
export const YAHOO_NATIONAL = [
  "yahoo.co.uk",
  "yahoo.fr",
  "yahoo.de",
  "yahoo.it",
  "yahoo.es",
  "yahoo.ca",
  "yahoo.in",
  "yahoo.co.in",
  "yahoo.com.au",
  "yahoo.com.br",
  "yahoo.com.mx",
  "yahoo.com.ar",
] as const;

/**
 * The one table of provider rules, by domain (lower case), each with the provider's own documentation (the page
 * addresses were written down on a machine without internet access: check them when the table changes):
 * - Gmail: "Dots don't matter in Gmail addresses" (support.google.com/mail/answer/7436150) and task-specific
 *   addresses with "+" (support.google.com/a/users/answer/9308648); googlemail.com is the same service under its
 *   former name in Germany and the UK, the same mailbox as @gmail.com (support.google.com/mail/answer/10313).
 * - Outlook.com, Hotmail, Live, MSN: plus addressing (learn.microsoft.com/exchange/recipients-in-exchange-online/
 *   plus-addressing-in-exchange-online; Outlook.com consumer mailboxes accept "+" the same way), for the .com domains
 *   and the national ones Microsoft gives consumer mailboxes under (MICROSOFT_NATIONAL: one Outlook.com service, so
 *   the same rule; each stays its own domain, since alice@hotmail.fr and alice@hotmail.com are two mailboxes).
 * - iCloud Mail (icloud.com, me.com, mac.com): "user+tag" is delivered to "user" (support.apple.com, iCloud Mail
 *   user guide, plus addressing).
 * - Fastmail: "Plus addressing and subdomain addressing" (fastmail.help/hc/en-us/articles/360060591053).
 * - Proton Mail (proton.me, protonmail.com, protonmail.ch, pm.me): "+aliases" (proton.me/support/creating-aliases),
 *   and ".", "_" and "-" in a username "are treated as transparent by our service. That is, username is the same as
 *   user_name and user.name" (proton.me/support/change-username; no other account can take a variation). The domains
 *   are not merged: @pm.me is an optional address of paid plans, not every user's. Changing Proton's rule needs a
 *   migration as the national domains do (20261129120000_email_normalized_proton_transparent).
 * - Yahoo Mail: disposable addresses are "basename-keyword@yahoo.com" (Yahoo help, "Create and manage disposable
 *   email addresses"); Yahoo IDs cannot contain "-", so the text before it is the account's chosen base name. The
 *   same at Yahoo's national domains (YAHOO_NATIONAL), each its own domain as for Outlook.com's.
 */
const PROVIDERS: Readonly<Record<string, ProviderRule>> = {
  ...Object.fromEntries(MICROSOFT_NATIONAL.map((d) => [d, PLUS])),
  ...Object.fromEntries(YAHOO_NATIONAL.map((d) => [d, YAHOO])),
  "gmail.com": GMAIL,
  "googlemail.com": { ...GMAIL, aliasOf: "gmail.com" },
  "outlook.com": PLUS,
  "hotmail.com": PLUS,
  "live.com": PLUS,
  "msn.com": PLUS,
  "icloud.com": PLUS,
  "me.com": PLUS,
  "mac.com": PLUS,
  "fastmail.com": PLUS,
  "fastmail.fm": PLUS,
  "proton.me": PROTON,
  "protonmail.com": PROTON,
  "protonmail.ch": PROTON,
  "pm.me": PROTON,
  "yahoo.com": YAHOO,
};

/** The domains whose addresses have a canonical form other than lower case (for documentation and tests). */
export const CANONICAL_PROVIDER_DOMAINS = Object.keys(PROVIDERS);

export interface CanonicalMailbox {
  /** The canonical mailbox: lower case, the provider's tag and ignored characters removed, an alias domain replaced. */
  normalized: string;
  /** The address carried a tag the provider delivers to the base mailbox ("+tag", Yahoo's "-keyword"). */
  subaddressed: boolean;
}

/** The canonical mailbox of a parsed address, with the tag removed and the rules applied (for /email/check). */
export function canonicalMailbox(
  localPart: string,
  domain: string,
): CanonicalMailbox & { subaddress: string | null; rules: string[] } {
  const rules: string[] = [];
  const dom = domain.toLowerCase();
  // A quoted local part ("a+b"@x) is one opaque string: no provider rule applies inside quotes.
  let local = localPart.startsWith('"') ? localPart : localPart.toLowerCase();
  const rule = local.startsWith('"') ? undefined : PROVIDERS[dom];
  let subaddress: string | null = null;
  if (rule) {
    const at = local.indexOf(rule.separator);
    // A tag needs a base before it: "+x@gmail.com" is not a tag of an empty mailbox.
    if (at > 0) {
      subaddress = local.slice(at + 1);
      local = local.slice(0, at);
      rules.push(`removed the ${rule.separator}tag (the provider delivers it to the same inbox)`);
    }
    // What is left once they go must still name a mailbox ("_@proton.me" stays as it is).
    const kept = rule.ignored ? local.replace(rule.ignored.characters, "") : local;
    if (kept !== local && kept.length > 0) {
      local = kept;
      rules.push(`removed ${rule.ignored!.words} (the provider ignores them)`);
    }
  }
  const canonicalDomain = rule?.aliasOf ?? dom;
  if (rule?.aliasOf) rules.push(`${dom} is an alias of ${rule.aliasOf}`);
  return { normalized: `${local}@${canonicalDomain}`, subaddressed: subaddress !== null, subaddress, rules };
}

/**
 * The canonical mailbox of `address`. An address that does not parse is only trimmed and lower-cased: callers that
 * accept input validate it first, and a key for something that is not an address needs no provider rules.
 */
export function canonicalEmail(address: string): CanonicalMailbox {
  const parsed = parseAddress(address);
  if (!parsed.valid) return { normalized: address.trim().toLowerCase(), subaddressed: false };
  const { normalized, subaddressed } = canonicalMailbox(parsed.localPart, parsed.domain);
  return { normalized, subaddressed };
}
