// The assessment scenarios' requests and workspace fixtures, shared by the service scenarios (bench/scenarios.ts)
// and the bare reference (bench/reference-server.ts), so both score the same traffic against the same rules.
import type { ListRow } from "../server/lists/lookup";
import type { EnabledRule } from "../server/rules/rules";
import { ipAt } from "./ips";

export const ASSESS_USER_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36";

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/**
 * A user's phone number (issue 45, item 7): mostly valid numbers of several plans and types (US
 * fixed_line_or_mobile, UK and German mobiles, a UK national number read in `phone_country` or, without it, in the
 * IP address's country), now and then one no plan has (phone_invalid); one user in twenty gives the number of the
 * user before (two accounts linked by phone). The countries differ from most addresses' (phone_country_mismatch).
 */
export function phoneOf(u: number): { phone: string; phone_country?: string } {
  if (u % 20 === 1) return phoneOf(u - 1);
  if (u % 97 === 3) return { phone: `+1555${pad(u % 1000, 3)}` };
  switch (u % 10) {
    case 6:
    case 7:
      return { phone: `+447400${pad((u * 37) % 1_000_000, 6)}` };
    case 8:
      return { phone: `+49151${pad((u * 7919) % 100_000_000, 8)}` };
    case 9:
      // National: read in phone_country for most, else in the address's country (where it is rarely valid).
      return u % 3 === 0
        ? { phone: `07400 ${pad((u * 37) % 1_000_000, 6)}` }
        : { phone: `07400 ${pad((u * 37) % 1_000_000, 6)}`, phone_country: "GB" };
    default:
      return { phone: `+1 201-555-${pad(u % 10_000, 4)}` };
  }
}

/** Shoppers the checkout scenario cycles through, each with a device, a phone number and a card. */
export const CHECKOUT_USERS = 400;
/** Out of every CARD_TESTING_EVERY checkouts, the first CARD_TESTING_RUN are a card tester's burst. */
export const CARD_TESTING_EVERY = 300;
export const CARD_TESTING_RUN = 15;
const BINS = ["424242", "555555", "378282", "601111", "35301113"] as const;

/**
 * A checkout on local signals only (shipped feeds, no email, so no DNS) from a rotating address, with a phone
 * number and the card attempt as a processor answers it (BIN, last four, fingerprint for half the cards, amount in
 * minor units, status; never a card number). Shoppers now and then share a device (one in thirty uses the device of
 * the shopper before) or a card (one in forty pays with the card of the shopper before): linked accounts; one attempt
 * in nine is declined. Every CARD_TESTING_EVERY checkouts a card tester (one of four devices) tries CARD_TESTING_RUN
 * different cards for 1.00, four in five declined: card_testing, small amounts.
 */
export const checkoutAt = (i: number) => {
  const base = {
    event: "checkout",
    ip: ipAt(i),
    user_agent: ASSESS_USER_AGENT,
    amount: 50 + (i % 100),
    currency: "USD",
    billing_country: "US",
  };
  if (i % CARD_TESTING_EVERY < CARD_TESTING_RUN) {
    const t = Math.floor(i / CARD_TESTING_EVERY) % 4;
    const declined = i % 5 !== 0;
    return {
      ...base,
      amount: 1,
      user_id: `guest-${t}`,
      device_id: `tester-${t}`,
      phone: `+1 201-555-${pad(9000 + t, 4)}`,
      payment: {
        bin: "411111",
        last4: pad((i * 7) % 10_000, 4),
        amount: 100,
        currency: "USD",
        status: declined ? "declined" : "succeeded",
        ...(declined ? { decline_code: "card_declined" } : {}),
      },
    };
  }
  const u = i % CHECKOUT_USERS;
  const deviceOf = u % 30 === 5 ? u - 1 : u;
  const cardOf = u % 40 === 2 ? u - 1 : u;
  const declined = i % 9 === 0;
  return {
    ...base,
    user_id: `shopper-${u}`,
    device_id: `shop-dev-${deviceOf}`,
    ...phoneOf(u),
    payment: {
      bin: BINS[cardOf % BINS.length]!,
      last4: pad((cardOf * 7919) % 10_000, 4),
      ...(cardOf % 2 === 0 ? { fingerprint: `fp_bench_${cardOf}` } : {}),
      amount: base.amount * 100,
      currency: "USD",
      status: declined ? "declined" : "succeeded",
      ...(declined ? { decline_code: "insufficient_funds" } : {}),
    },
  };
};

/** Users the login scenario cycles through; each has a home address and device and now and then travels. */
export const LOGIN_USERS = 500;

/**
 * A login of one of LOGIN_USERS accounts (account history: baseline, failure counters) with the account's phone
 * number (phoneOf: some shared, some invalid, some national); one in seven fails.
 */
export const loginAt = (i: number) => {
  const u = i % LOGIN_USERS;
  return {
    event: "login",
    ip: ipAt(u + (i % 11 === 0 ? 1 : 0)),
    user_agent: ASSESS_USER_AGENT,
    user_id: `user-${u}`,
    device_id: `dev-${u}${i % 13 === 0 ? "-new" : ""}`,
    status: i % 7 === 0 ? "failed" : "succeeded",
    ...phoneOf(u),
  };
};

/** The login workspace's named list: 1,000 partner networks (/24s), none of which the scenario's addresses are in. */
export const PARTNER_LIST = "partner_networks";
export const partnerNetworks = (): string[] => Array.from({ length: 1000 }, (_, k) => `45.${k >> 8}.${k & 255}.0/24`);

/** The login workspace's rule: a partner network is always allowed (evaluated on every login, never matching). */
export const PARTNER_RULE = {
  name: "Partner networks",
  action: "allow",
  expression: `in_list("${PARTNER_LIST}", ip.address)`,
} as const;

/** The same rule and list as the reference holds them. */
export function partnerFixtures(): { rules: EnabledRule[]; lists: ListRow[] } {
  return {
    rules: [{ id: "rule_partner", mode: "active", conditions: null, ...PARTNER_RULE }],
    lists: partnerNetworks().map((value) => ({ name: PARTNER_LIST, kind: "ip", value, expiresAt: null })),
  };
}
