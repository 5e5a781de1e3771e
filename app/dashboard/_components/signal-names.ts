// Plain names for the assessment's signal codes, for the pages that list signals without their reasons (the review
// queue reads them from the stored event, which keeps codes and weights only; the weights page lists every code).
// The code stays beside the name: rules and the API speak in codes. A code without a name here shows as it is.

const SIGNAL_NAMES: Readonly<Record<string, string>> = {
  // The address and its network (server/assessment/ip-evidence.ts).
  ip_tor_exit: "Tor exit node",
  ip_vpn: "VPN address",
  ip_vpn_network: "Address in a VPN operator's network",
  ip_scanner: "Internet scanner address",
  ip_private_relay: "iCloud Private Relay",
  ip_hosting: "Hosting or data-centre address",
  ip_cdn_edge: "CDN edge address",
  ip_verified_crawler: "Verified search crawler",
  ip_blocklisted: "Address on a blocklist",
  asn_blocklisted: "Network on a blocklist",
  ip_not_public: "Private or reserved address",
  geo_mismatch: "Billing country differs from the address's",
  // The user agent.
  ua_spoofed_crawler: "Fake crawler user agent",
  ua_missing: "No user agent",
  ua_automation: "Automation tool user agent",
  ua_unusual: "Unusual user agent",
  // The account's own history (server/assessment/account.ts).
  user_new_country: "New country for this account",
  user_new_asn: "New network for this account",
  user_new_device: "New device for this account",
  user_impossible_travel: "Impossible travel",
  user_failed_logins: "Repeated failed logins",
  user_success_after_failures: "Success after failed logins",
  ip_credential_stuffing: "Many accounts failing from this address",
  device_credential_stuffing: "Many accounts failing on this device",
  ip_shared_egress: "Address shared by many accounts",
  // The email address (server/assessment/email-evidence.ts).
  email_disposable: "Disposable email address",
  email_undeliverable: "Email domain cannot receive mail",
  email_possible_typo: "Likely typo in the email domain",
  email_role_account: "Role address (info@, admin@)",
  email_free_provider: "Free email provider",
  // Repeats in the velocity window (server/assessment/velocity.ts).
  velocity_ip: "Many recent assessments from this address",
  velocity_email: "Many recent assessments of this email",
  velocity_device: "Many recent assessments of this device",
  // The device's own report (server/device/diagnose.ts).
  device_automation: "Automated browser",
  device_headless: "Headless browser traits",
  device_ua_mismatch: "Browser differs from its user agent",
  device_timezone_mismatch: "Time zone does not match the address",
  device_no_languages: "Browser reports no languages",
  device_many_accounts: "Device used by several accounts",
  device_very_many_accounts: "Device used by many accounts",
  device_many_ips: "Device seen from many addresses",
  // A checkout's amount (server/assessment/amount.ts).
  amount_very_high: "Very high amount",
  amount_high: "High amount",
  // Linked accounts and card testing (server/assessment/identity-evidence.ts).
  linked_accounts: "Accounts linked by a shared device, mailbox, phone or card",
  card_testing: "Card testing: many cards, many declines",
  card_declines: "Card declined again and again",
  // The phone number and the password verdict (server/assessment/phone-evidence.ts).
  phone_invalid: "Phone number that does not exist",
  phone_country_mismatch: "Phone number from another country",
  password_compromised: "Common or breached password",
};

/** The signal's plain name, or null when it has none (then show the code alone). */
export function signalName(code: string): string | null {
  return Object.hasOwn(SIGNAL_NAMES, code) ? SIGNAL_NAMES[code]! : null;
}
