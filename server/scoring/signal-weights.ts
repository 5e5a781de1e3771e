// The one table of default signal weights: every code the assessment (/assess), the /ip risk score and
// /device/check can raise, with its group, its default points and, where they differ, its points by event (velocity:
// its tiers). The evidence modules read their weights here and nowhere else (email-evidence.ts, velocity.ts,
// amount.ts, device/weights.ts, ip-evidence.ts, user-agent.ts, account.ts, ip/score.ts); learned weights
// (server/weights) replace them per code; the dashboard names every code of it (signal-names.test.ts, which also
// finds any signal code in the evidence modules' source that is missing here). It imports nothing.

/** What raised the signal: which evidence module, and so how its weight is applied. */
export type SignalGroup =
  | "privacy"
  | "network"
  | "user_agent"
  | "account"
  | "email"
  | "velocity"
  | "device"
  | "amount"
  | "identity"
  | "payment";

type EventName = "signup" | "login" | "checkout" | "form" | "api";

export interface SignalEntry {
  group: SignalGroup;
  /** Default points (for a velocity signal, those of its highest tier). */
  weight: number;
  /** A different weight for some events (server-to-server API calls come from data centres by nature). */
  byEvent?: Partial<Record<EventName, number>>;
  /** Velocity: earlier assessments at or above `at` add `weight`; the first tier reached (highest first) applies. */
  tiers?: readonly { at: number; weight: number }[];
}

export const SIGNALS = {
  // Privacy and the address's network (server/assessment/ip-evidence.ts, server/ip/score.ts): a signal from an
  // evidence list older than its freshness window counts three quarters, half or a quarter of these (by its kind's
  // schedule: server/feeds/definitions/ranges.ts AGE_SCHEDULES).
  ip_tor_exit: { group: "privacy", weight: 45 },
  // A VPN provider's own published exit (high confidence): alone enough for a review (the user's location is
  // unknown, the tool of account takeovers and promotion abuse, and of many honest users too) ...
  ip_vpn: { group: "privacy", weight: 30 },
  // ... and an address in a VPN operator's network or ASN (medium confidence: the network carries VPN exits).
  ip_vpn_network: { group: "privacy", weight: 15 },
  // An internet-wide scanner (Censys, Shodan, ...): automated research or reconnaissance, never a customer.
  ip_scanner: { group: "privacy", weight: 40 },
  // Ordinary Safari users with iCloud+ send through Private Relay: only a slight signal.
  ip_private_relay: { group: "privacy", weight: 5 },
  ip_hosting: { group: "privacy", weight: 20, byEvent: { api: 5 } },
  ip_cdn_edge: { group: "privacy", weight: 10, byEvent: { api: 5 } },
  // A crawler verified by its operator's ranges is expected on forms it indexes and APIs it calls; elsewhere neutral.
  ip_verified_crawler: { group: "privacy", weight: 0, byEvent: { form: -20, api: -20 } },
  ua_spoofed_crawler: { group: "user_agent", weight: 50 },
  ip_blocklisted: { group: "network", weight: 50 },
  asn_blocklisted: { group: "network", weight: 50 },
  ip_not_public: { group: "network", weight: 20 },
  geo_mismatch: { group: "network", weight: 20 },
  // The user agent (server/assessment/user-agent.ts).
  ua_missing: { group: "user_agent", weight: 15 },
  ua_automation: { group: "user_agent", weight: 35 },
  ua_unusual: { group: "user_agent", weight: 10 },
  // The account's own history (server/assessment/account.ts).
  user_new_country: { group: "account", weight: 20 },
  user_new_asn: { group: "account", weight: 5 },
  user_new_device: { group: "account", weight: 10 },
  user_impossible_travel: { group: "account", weight: 50 },
  user_failed_logins: { group: "account", weight: 20 },
  user_success_after_failures: { group: "account", weight: 25 },
  ip_credential_stuffing: { group: "account", weight: 40 },
  device_credential_stuffing: { group: "account", weight: 40 },
  // An address many accounts or devices share in a day (a NAT, office, carrier or proxy egress): evidence, not a verdict.
  ip_shared_egress: { group: "account", weight: 10 },
  // The email address (server/assessment/email-evidence.ts).
  email_disposable: { group: "email", weight: 35 },
  email_undeliverable: { group: "email", weight: 30 },
  email_possible_typo: { group: "email", weight: 15 },
  email_role_account: { group: "email", weight: 10 },
  email_free_provider: { group: "email", weight: 5 },
  // Repeats in the velocity window (server/assessment/velocity.ts).
  velocity_ip: {
    group: "velocity",
    weight: 30,
    tiers: [
      { at: 20, weight: 30 },
      { at: 5, weight: 15 },
    ],
  },
  velocity_email: {
    group: "velocity",
    weight: 35,
    tiers: [
      { at: 10, weight: 35 },
      { at: 3, weight: 20 },
    ],
  },
  velocity_device: {
    group: "velocity",
    weight: 30,
    tiers: [
      { at: 20, weight: 30 },
      { at: 5, weight: 15 },
    ],
  },
  // The device (server/device/diagnose.ts: /device/check and the device part of /assess).
  device_automation: { group: "device", weight: 40 },
  device_headless: { group: "device", weight: 20 },
  device_ua_mismatch: { group: "device", weight: 15 },
  device_timezone_mismatch: { group: "device", weight: 10 },
  device_no_languages: { group: "device", weight: 5 },
  device_many_accounts: { group: "device", weight: 20 },
  device_very_many_accounts: { group: "device", weight: 35 },
  device_many_ips: { group: "device", weight: 10 },
  // A checkout's amount (server/assessment/amount.ts).
  amount_very_high: { group: "amount", weight: 25 },
  amount_high: { group: "amount", weight: 10 },
  // Accounts sharing a device, mailbox, phone number or card (server/assessment/identity-evidence.ts): by the number
  // of other accounts linked in 30 days, the first tier reached applies.
  linked_accounts: {
    group: "identity",
    weight: 40,
    tiers: [
      { at: 5, weight: 40 },
      { at: 3, weight: 25 },
      { at: 1, weight: 10 },
    ],
  },
  // Card testing (server/assessment/identity-evidence.ts): a burst of cards with declines from one device or address,
  // and one card declined again and again.
  card_testing: { group: "payment", weight: 45 },
  card_declines: { group: "payment", weight: 15 },
  // The phone number and the caller's password verdict (server/assessment/phone-evidence.ts): a number no plan has,
  // a number from another country than the address, a password on a list of common or breached ones.
  phone_invalid: { group: "identity", weight: 20 },
  phone_country_mismatch: { group: "identity", weight: 10 },
  password_compromised: { group: "identity", weight: 25 },
} as const satisfies Record<string, SignalEntry>;

export type SignalCode = keyof typeof SIGNALS;
type Table = typeof SIGNALS;
/** The codes of some groups. */
export type CodesOf<G extends SignalGroup> = { [K in SignalCode]: Table[K]["group"] extends G ? K : never }[SignalCode];

/** Every code of the table, in its order. */
export const SIGNAL_CODES = Object.keys(SIGNALS) as SignalCode[];

/** The entries of some groups, in the table's order. */
export function signalsOf<G extends SignalGroup>(...groups: G[]): { [K in CodesOf<G>]: Table[K] } {
  return Object.fromEntries(
    Object.entries(SIGNALS).filter(([, e]) => (groups as SignalGroup[]).includes(e.group)),
  ) as unknown as { [K in CodesOf<G>]: Table[K] };
}

/** Whether a code is in the table. */
export const isSignalCode = (code: string): code is SignalCode => Object.hasOwn(SIGNALS, code);
