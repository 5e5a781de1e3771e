// The account's facts a case shows, in words: the stored assessment keeps them under the names the rules see.
/** The account's facts a reviewer reads, in words, in this order; the rules see them by these names. */
export const ACCOUNT_FACTS: [string, string][] = [
  ["user.seen_before", "Seen before"],
  ["user.first_seen_days", "First seen, days ago"],
  ["user.assessments_30d", "Earlier succeeded assessments, last 30 days"],
  ["user.new_country", "New country"],
  ["user.new_asn", "New network"],
  ["user.new_device", "New device"],
  ["user.countries_30d", "Countries in 30 days"],
  ["user.devices_30d", "Devices in 30 days"],
  ["user.impossible_travel", "Impossible travel"],
  ["user.travel_kmh", "Travel speed, km/h"],
  ["user.failed_logins_1h", "Failed attempts, last hour"],
  ["user.success_after_failures", "Succeeded after failures"],
  ["ip.failed_logins_1h", "Failed attempts from this address, last hour"],
  ["ip.failed_users_1h", "Accounts failing from this address, last hour"],
  ["device.failed_users_1h", "Accounts failing from this device, last hour"],
  ["email.normalized", "Canonical email (every spelling of the inbox)"],
  ["email.subaddressed", "Email has a +tag"],
  ["user.linked_accounts_30d", "Other accounts linked, last 30 days"],
  ["device.accounts_30d", "Accounts on this device, last 30 days"],
  ["email.accounts_30d", "Accounts with this mailbox, last 30 days"],
  ["phone.accounts_30d", "Accounts with this phone number, last 30 days"],
  ["phone.valid", "Phone number valid"],
  ["phone.type", "Phone line type"],
  ["phone.country_matches_ip", "Phone country matches the address"],
  ["device.cards_1h", "Cards from this device, last hour"],
  ["device.declines_1h", "Declines from this device, last hour"],
  ["ip.cards_1h", "Cards from this address, last hour"],
  ["card.declines_24h", "Declines of this card, last 24 hours"],
  ["payment.small_amount", "Small amount"],
];
/** A fact as words: an enum's underscores read as spaces ("premium rate"); an address is shown as it is. */
export const factValue = (v: unknown, key: string): string =>
  typeof v === "boolean"
    ? v
      ? "yes"
      : "no"
    : typeof v === "number"
      ? Math.round(v).toLocaleString("en-US")
      : typeof v === "string"
        ? key === "email.normalized"
          ? v
          : v.replace(/_/g, " ")
        : "";

/** The facts this assessment recorded, as [label, value] rows in the reading order above. */
export function accountFactRows(facts: Record<string, unknown>): [string, string][] {
  return ACCOUNT_FACTS.filter(([k]) => facts[k] !== undefined).map(([k, label]) => [label, factValue(facts[k], k)]);
}
