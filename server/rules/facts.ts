// The facts of an assessment that a rule can read, in ONE table: the expression environment (./expression.ts),
// the condition fields (./conditions.ts) and the OpenAPI descriptions of the rules endpoints all read it, so an
// identifier documented is an identifier the evaluator knows. Names follow the assessment request and result
// (`billing_country`, `ip.country`, `email.disposable`), so a user reads an assessment and writes a rule in the
// same words. The facts are stored with the assessment event, which is what a backtest evaluates later.

export type FactType = "string" | "int" | "double" | "bool" | "list<string>";

interface FactDef {
  type: FactType;
  doc: string;
}

const WINDOWS = { "1h": "the last hour", "24h": "the last 24 hours", "7d": "the last 7 days" } as const;
export type VelocityWindow = keyof typeof WINDOWS;
export const VELOCITY_WINDOWS = Object.keys(WINDOWS) as VelocityWindow[];
const KEYS = {
  ip: "IP address",
  email: "email mailbox (every spelling of it: email.normalized)",
  device: "device_id",
  user: "user_id",
} as const;
export type VelocityKey = keyof typeof KEYS;
export const VELOCITY_KEYS = Object.keys(KEYS) as VelocityKey[];

function velocityFacts(): Record<string, FactDef> {
  const out: Record<string, FactDef> = {};
  for (const k of VELOCITY_KEYS) {
    for (const w of VELOCITY_WINDOWS)
      out[`velocity.${k}_${w}`] = {
        type: "int",
        doc: `earlier assessments in this workspace with the same ${KEYS[k]} in ${WINDOWS[w]}`,
      };
  }
  for (const w of VELOCITY_WINDOWS) {
    out[`velocity.device_users_${w}`] = {
      type: "int",
      doc: `distinct user_id values seen on this device_id in ${WINDOWS[w]} (earlier assessments, this one included)`,
    };
    out[`velocity.ip_emails_${w}`] = {
      type: "int",
      doc: `distinct email mailboxes (email.normalized) seen from this IP address in ${WINDOWS[w]} (earlier assessments, this one included)`,
    };
  }
  return out;
}

/**
 * The account's own history (server/assessment/account.ts): the account is `user_id`, else the email address. The
 * baseline learns from the account's succeeded assessments of the last 90 days; a first assessment is new nothing.
 */
function accountFacts() {
  return {
    "user.seen_before": { type: "bool", doc: "the account has a succeeded assessment in the last 90 days" },
    "user.first_seen_days": { type: "int", doc: "days since the account's first succeeded assessment (90-day window)" },
    "user.assessments_30d": { type: "int", doc: "the account's succeeded assessments in the last 30 days" },
    "user.new_country": {
      type: "bool",
      doc: "the IP's country was never seen for this account in 90 days (false for an account without history)",
    },
    "user.new_asn": {
      type: "bool",
      doc: "the IP's network (AS) was never seen for this account in 90 days (false without history)",
    },
    "user.new_device": {
      type: "bool",
      doc: "the device_id was never seen for this account in 90 days (false without history)",
    },
    "user.countries_30d": {
      type: "int",
      doc: "distinct IP countries of the account in the last 30 days, this assessment included",
    },
    "user.devices_30d": {
      type: "int",
      doc: "distinct device_id values of the account in the last 30 days, this assessment included",
    },
    "user.travel_kmh": {
      type: "double",
      doc: "speed in km/h from the account's last succeeded login's location to this one (geolocation coordinates)",
    },
    "user.impossible_travel": {
      type: "bool",
      doc: "faster than 1,000 km/h over 100 km or more from the last succeeded login; never for VPN, Tor, relay or hosting addresses",
    },
    "user.failed_logins_1h": {
      type: "int",
      doc: "failed login and signup attempts of the account in the last hour, this one included",
    },
    "user.success_after_failures": {
      type: "bool",
      doc: "this attempt succeeded after 3 or more failed attempts of the account since its last success (last hour)",
    },
    "ip.failed_logins_1h": {
      type: "int",
      doc: "failed attempts from this IP address in the last hour, this one included",
    },
    "ip.failed_users_1h": {
      type: "int",
      doc: "distinct accounts with a failed attempt from this IP address in the last hour, this one included (credential stuffing)",
    },
    "ip.users_24h": {
      type: "int",
      doc: "distinct accounts (user_id, else email) assessed from this IP address in the last 24 hours, this one included: evidence of shared egress, not a verdict",
    },
    "ip.users_7d": {
      type: "int",
      doc: "distinct accounts assessed from this IP address in the last 7 days, this one included",
    },
    "ip.devices_24h": {
      type: "int",
      doc: "distinct device_id values assessed from this IP address in the last 24 hours, this one included",
    },
    "ip.devices_7d": {
      type: "int",
      doc: "distinct device_id values assessed from this IP address in the last 7 days, this one included",
    },
    "ip.failed_users_24h": {
      type: "int",
      doc: "distinct accounts with a failed attempt from this IP address in the last 24 hours, this one included",
    },
    "ip.failed_share_24h": {
      type: "double",
      doc: "share (0 to 1) of the accounts assessed from this IP address in 24 hours that failed there: with ip.users_24h, many accounts mostly failing is stuffing, mostly succeeding a shared office or carrier egress",
    },
    "ip.fraud_users_24h": {
      type: "int",
      doc: "distinct accounts assessed from this IP address in the last 24 hours whose assessment there was labelled fraud (an outcome label or a review case resolved as fraud, chargeback, account_takeover or abuse), this request's account included when an earlier assessment of it there was labelled",
    },
    "ip.fraud_share_24h": {
      type: "double",
      doc: "share (0 to 1) of the accounts assessed from this IP address in 24 hours that were labelled fraud there: with ip.users_24h, an address many accounts share where several turned out fraudulent is a proxy or fraud farm, not an office; evidence, not a verdict",
    },
    "ip.shared_egress": {
      type: "bool",
      doc: '10 or more distinct accounts or devices from this IP address in 24 hours ("an address used by 41 accounts in a day"): a NAT, office, carrier or proxy egress shared by many; evidence, not a verdict',
    },
    "device.failed_users_1h": {
      type: "int",
      doc: "distinct accounts with a failed attempt from this device_id in the last hour, this one included",
    },
  } as const satisfies Record<string, FactDef>;
}

/**
 * Linked accounts and cards (server/assessment/identity-evidence.ts): accounts (user_id, else email) sharing an
 * identifier with this request in the workspace's last 30 days, and the cards and declines of a `payment`. The card
 * facts are absent without a `payment`; a device fact without a device_id.
 */
function identityFacts() {
  return {
    "device.accounts_30d": {
      type: "int",
      doc: "distinct accounts that used this device_id in the last 30 days, this one included",
    },
    "email.accounts_30d": {
      type: "int",
      doc: "distinct accounts whose email is this canonical mailbox (every spelling of one inbox: dots and +tags at Gmail, +tags where documented) in the last 30 days, this one included",
    },
    "phone.accounts_30d": {
      type: "int",
      doc: "distinct accounts that gave this phone number in the last 30 days, this one included; absent for a number the numbering plans do not read, which links no one",
    },
    "user.linked_accounts_30d": {
      type: "int",
      doc: "distinct other accounts sharing this request's device_id, canonical mailbox, phone number or card in the last 30 days (multi-accounting); named in the `linked_accounts` signal and on GET /users/{user_id}",
    },
    "device.cards_1h": {
      type: "int",
      doc: "distinct cards (fingerprint, else BIN and last four) used from this device_id in the last hour (paid or declined), this one included",
    },
    "ip.cards_1h": {
      type: "int",
      doc: "distinct cards used from this IP address in the last hour (paid or declined), this one included; an IPv6 address counts with every address of its /64",
    },
    "user.cards_30d": {
      type: "int",
      doc: "distinct cards of the account in the last 30 days, this one included",
    },
    "device.declines_1h": {
      type: "int",
      doc: "declined or failed payments from this device_id in the last hour (by whole minutes), this one included",
    },
    "ip.declines_1h": {
      type: "int",
      doc: "declined or failed payments from this IP address in the last hour (by whole minutes), this one included; an IPv6 address counts with every address of its /64",
    },
    "card.declines_24h": {
      type: "int",
      doc: "declined or failed payments of this card in the last 24 hours (by whole minutes), this one included",
    },
    "payment.small_amount": {
      type: "bool",
      doc: "payment.amount is below SERVICE_ASSESS_SMALL_AMOUNT_MINOR (200 minor units by default): the small charges card testers probe with",
    },
  } as const satisfies Record<string, FactDef>;
}

/** Every identifier a rule can use. A fact that is unknown for an assessment (no email, no geolocation) is absent. */
export const FACTS = {
  event: { type: "string", doc: "the assessed event: signup, login, checkout, form, api or payment" },
  billing_country: { type: "string", doc: "billing_country of the request (upper-case ISO 3166-1 alpha-2)" },
  amount: { type: "double", doc: "amount of the request in major units" },
  currency: { type: "string", doc: "currency of the request (upper-case ISO 4217)" },
  user_agent: { type: "string", doc: "the User-Agent string as sent" },
  device_id: { type: "string", doc: "device_id of the request, else the id of the `device` object" },
  user_id: { type: "string", doc: "user_id of the request" },
  score: { type: "int", doc: "the computed risk score 0-100" },
  risk_level: { type: "string", doc: "low, medium, high or critical" },
  signals: {
    type: "list<string>",
    doc: 'codes of the signals that moved the score, e.g. `"email_disposable" in signals`',
  },
  "ip.address": {
    type: "string",
    doc: 'the request\'s IP address, canonical form, an IPv4-mapped client (::ffff:a.b.c.d) as its IPv4 address; an address compared with it (`==`, `!=`, `in`) is read the same way, so `ip.address == "::ffff:203.0.113.7"` matches 203.0.113.7 (use `ip.address.inCidr("203.0.113.0/24")` for ranges)',
  },
  "ip.scope": { type: "string", doc: "the address's scope (public, private, loopback, ...)" },
  "ip.country": { type: "string", doc: "country of the IP from the geolocation database (upper-case alpha-2)" },
  "ip.asn": { type: "int", doc: "origin AS number of the IP" },
  "ip.network_type": { type: "string", doc: "anonymizer, service, hosting, residential or unknown" },
  "ip.tor_exit": { type: "bool", doc: "a listed Tor exit relay" },
  "ip.vpn": {
    type: "bool",
    doc: "a commercial VPN: a provider's published exit (high confidence) or an address in a VPN operator's network or ASN (medium)",
  },
  "ip.vpn_provider": {
    type: "string",
    doc: 'the VPN provider or operator, e.g. "Mullvad VPN", "Proton VPN", "M247 (NordVPN)" (absent when not a VPN)',
  },
  "ip.private_relay": { type: "bool", doc: "an iCloud Private Relay egress" },
  "ip.hosting": { type: "bool", doc: "a cloud, hosting, platform or CDN network" },
  "ip.hosting_provider": {
    type: "string",
    doc: 'the cloud or hosting operator, e.g. "Amazon Web Services", "Hetzner Online GmbH" (absent when not hosting)',
  },
  "ip.scanner": {
    type: "bool",
    doc: "an internet-wide scanner's address (Censys, Shodan, Shadowserver, ...; MISP warninglists)",
  },
  "ip.scanner_org": { type: "string", doc: 'the scanner\'s organisation, e.g. "Censys" (absent when not a scanner)' },
  "ip.privacy_confidence": {
    type: "string",
    doc: "high (a provider's own list: VPN exit, Tor, relay, scanner, published ranges) or medium (a VPN or hosting network derived from ASNs) for the headline anonymiser class; absent when none",
  },
  "ip.crawler": { type: "bool", doc: "in a verified crawler's published ranges" },
  "ip.service": { type: "string", doc: "the named service behind the address (e.g. Proton VPN, Googlebot)" },
  "ip.lists": {
    type: "list<string>",
    doc: 'feeds and blocklists that hold the address, e.g. `"spamhaus-drop" in ip.lists`',
  },
  "email.address": { type: "string", doc: "the email address (lower-case)" },
  "email.domain": { type: "string", doc: "the email's domain (lower-case)" },
  "email.disposable": { type: "bool", doc: "the domain is a disposable email provider" },
  "email.free_provider": { type: "bool", doc: "the domain is a free email provider" },
  "email.role_account": { type: "bool", doc: "the local part is a role account (admin, info, ...)" },
  "email.mx": {
    type: "string",
    doc: "mail acceptance: present, null_mx, implicit, absent, domain_not_found, unavailable or not_checked",
  },
  "email.normalized": {
    type: "string",
    doc: 'the canonical mailbox: Gmail dots and +tags of providers that document them removed, googlemail.com as gmail.com ("a.l.i.c.e+1@googlemail.com" is "alice@gmail.com"); lists of kind email match on it',
  },
  "email.subaddressed": {
    type: "bool",
    doc: "the address carries a tag its provider delivers to the base mailbox (+tag; Yahoo's -keyword)",
  },
  "phone.valid": {
    type: "bool",
    doc: "the request's `phone` is a valid number of its numbering plan (libphonenumber-js metadata; a national number is read in `phone_country`, else the IP address's country); absent without a phone",
  },
  "phone.type": {
    type: "string",
    doc: "the number's line type: mobile, fixed_line, fixed_line_or_mobile (the plan cannot tell, as in the US), voip, toll_free, premium_rate, shared_cost, personal, pager, uan or unknown (also when invalid); absent without a phone",
  },
  "phone.country": { type: "string", doc: "the number's country (ISO 3166-1 alpha-2); absent when unknown" },
  "phone.country_matches_ip": {
    type: "bool",
    doc: "the number's country is the IP address's country, or shares its numbering plan (GB with GG, JE, IM; US with PR, VI, GU, AS, MP; ...); absent when either is unknown",
  },
  password_compromised: {
    type: "bool",
    doc: "the caller says the user's password is on a list of common or breached passwords (`password_compromised`, e.g. checked with GET /passwords/range/{prefix}); absent when not sent",
  },
  "device.verdict": { type: "string", doc: "diagnosis of the `device` object: automated, suspicious or human" },
  "device.risk_score": { type: "int", doc: "risk score of the `device` object 0-100" },
  "device.timezone_mismatch": {
    type: "bool",
    doc: "the `device` object's time zone does not fit the IP address's location (evidence of a proxy, VPN or spoofed zone, not a verdict); absent when it could not be checked",
  },
  "device.language_mismatch": {
    type: "bool",
    doc: "none of the `device` object's languages (navigator.languages) is spoken in the IP address's country, e.g. ru-RU from Germany (evidence of a proxy or VPN in another country, not a verdict: travellers and expatriates browse in their own language, and an English browser outside English-speaking countries counts as a mismatch); absent when the device sent no language or the address has no country",
  },
  ...velocityFacts(),
  ...accountFacts(),
  ...identityFacts(),
} as const satisfies Record<string, FactDef>;

export type FactName = keyof typeof FACTS;
export const FACT_NAMES = Object.keys(FACTS) as FactName[];

/**
 * An assessment's facts, flat by identifier, JSON-safe (stored as is in the event): unknown facts are left out,
 * integers are plain numbers.
 */
export type Facts = Partial<Record<FactName, string | number | boolean | string[]>>;

/** Drops nulls and undefined so an unknown fact is absent, never a typed null. */
export function compactFacts(
  raw: Partial<Record<FactName, string | number | boolean | string[] | null | undefined>>,
): Facts {
  const out: Facts = {};
  for (const name of FACT_NAMES) {
    const v = raw[name];
    if (v !== null && v !== undefined) out[name] = v;
  }
  return out;
}

/** Each fact's place in the evaluation context (its group and field), worked out once: every assessment asks. */
const CONTEXT_PLACES = FACT_NAMES.map((name) => {
  const dot = name.indexOf(".");
  const def: FactDef = FACTS[name];
  return {
    name,
    group: dot < 0 ? null : name.slice(0, dot),
    field: dot < 0 ? name : name.slice(dot + 1),
    int: def.type === "int",
  };
});

/** The evaluation context: nested by the part before the dot, CEL integers as BigInt, unknown facts absent. */
export function toCelContext(facts: Facts): Record<string, unknown> {
  const ctx: Record<string, unknown> = {};
  for (const { name, group, field, int } of CONTEXT_PLACES) {
    const raw = facts[name];
    if (raw === undefined || raw === null) continue;
    const value = int && typeof raw === "number" ? BigInt(Math.trunc(raw)) : raw;
    if (group === null) ctx[field] = value;
    else ((ctx[group] ??= {}) as Record<string, unknown>)[field] = value;
  }
  // A group is always present, so `has(email.address)` asks about the fact, not about the group.
  for (const group of FACT_GROUPS) ctx[group] ??= {};
  return ctx;
}

/** Top-level names with fields (`ip`, `email`, `device`, `velocity`). */
export const FACT_GROUPS = [
  ...new Set(FACT_NAMES.filter((n) => n.includes(".")).map((n) => n.slice(0, n.indexOf(".")))),
];

/** The identifier reference, one line per fact, for OpenAPI descriptions and the docs. */
export function factsDoc(): string {
  return FACT_NAMES.map((n) => `\`${n}\` (${FACTS[n].type}): ${FACTS[n].doc}`).join("; ");
}
