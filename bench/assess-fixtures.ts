// The assessment scenarios' requests and workspace fixtures, shared by the service scenarios (bench/scenarios.ts)
// and the bare reference (bench/reference-server.ts), so both score the same traffic against the same rules.
import type { ListRow } from "../server/lists/lookup";
import type { EnabledRule } from "../server/rules/rules";
import { ipAt } from "./ips";

export const ASSESS_USER_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36";

/** A checkout on local signals only (shipped feeds, no email, so no DNS) from a rotating address. */
export const checkoutAt = (i: number) => ({
  event: "checkout",
  ip: ipAt(i),
  user_agent: ASSESS_USER_AGENT,
  amount: 50 + (i % 100),
  currency: "USD",
  billing_country: "US",
});

/** Users the login scenario cycles through; each has a home address and device and now and then travels. */
export const LOGIN_USERS = 500;

/** A login of one of LOGIN_USERS accounts (account history: baseline, failure counters); one in seven fails. */
export const loginAt = (i: number) => {
  const u = i % LOGIN_USERS;
  return {
    event: "login",
    ip: ipAt(u + (i % 11 === 0 ? 1 : 0)),
    user_agent: ASSESS_USER_AGENT,
    user_id: `user-${u}`,
    device_id: `dev-${u}${i % 13 === 0 ? "-new" : ""}`,
    status: i % 7 === 0 ? "failed" : "succeeded",
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
