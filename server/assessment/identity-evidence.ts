// Linked accounts and card testing as evidence (issue 45, items 2 and 4): the rule facts and signals of the counts the
// velocity statement read (./identity-read.ts), with reasons that name what was shared and with whom. No I/O: the
// benchmark's bare reference builds the same row in memory. Counts include this assessment, as the other velocity
// facts do; the linked accounts are the others.
import type { Facts } from "../rules/facts";
import { SIGNALS } from "../scoring/signal-weights";
import { accountName, type IdentityKeys, type LinkKind } from "./identity-keys";
import { smallAmountMinor } from "./config";
import { binInfo, type PaymentInput } from "./payment";
import type { Signal } from "./schemas";

type Row = Record<string, unknown>;

/** Other accounts linked at or above `at` add `weight`; the first tier reached applies (the table's tiers). */
const LINKED_TIERS = SIGNALS.linked_accounts.tiers;

/** A burst of cards: this many distinct cards from one device (or twice as many from one address) in an hour ... */
export const CARD_TESTING_CARDS = 5;
/** ... of which at least this many declines. */
export const CARD_TESTING_DECLINES = 3;
/** One card declined this often in 24 hours. */
export const CARD_DECLINES_AT = 3;

const SHARED: Record<LinkKind, string> = {
  device: "used this device",
  email: "used this mailbox",
  phone: "gave this phone number",
  card: "used this card",
};

export interface LinkedSummary {
  accounts_30d: number;
  by: { kind: LinkKind; accounts_30d: number; names: string[] }[];
}

/** A list of names as people write it: "bob, carol and 2 more". */
function names(list: string[], total: number): string {
  const shown = list.join(", ");
  return total > list.length ? `${shown} and ${total - list.length} more` : shown;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function identityEvidence(a: {
  row: Row;
  keys: IdentityKeys;
  payment: PaymentInput | undefined;
  event: string;
}): { facts: Facts; signals: Signal[]; linked: LinkedSummary | null; payment: PaymentSummary | null } {
  const n = (k: string) => Number(a.row[k] ?? 0);
  const list = (k: string) => (Array.isArray(a.row[k]) ? (a.row[k] as string[]).map(accountName) : []);
  const { keys } = a;
  const facts: Record<string, number | boolean> = {};
  const signals: Signal[] = [];
  const self = keys.subject ? 1 : 0;

  let linked: LinkedSummary | null = null;
  if (keys.subject) {
    const by: LinkedSummary["by"] = [];
    for (const kind of ["device", "email", "phone", "card"] as const) {
      if (!keys.identifiers[kind]) continue;
      const others = n(`links_${kind}_n`);
      if (kind !== "card") facts[`${kind}.accounts_30d`] = others + self;
      if (others) by.push({ kind, accounts_30d: others, names: list(`links_${kind}`) });
    }
    facts["user.linked_accounts_30d"] = n("links_n");
    linked = { accounts_30d: n("links_n"), by };
    const tier = LINKED_TIERS.find((t) => n("links_n") >= t.at);
    if (tier)
      signals.push({
        code: "linked_accounts",
        weight: tier.weight,
        reason: `${by
          .map(
            (b) =>
              `${plural(b.accounts_30d, "other account")} ${SHARED[b.kind]} this month: ${names(b.names, b.accounts_30d)}`,
          )
          .join(
            "; ",
          )}. One person behind several accounts (multi-accounting, a signup farm, promotion abuse): review them together.`,
        evidence: ["workspace-events"],
      });
  }

  let payment: PaymentSummary | null = null;
  if (a.payment && keys.card) {
    const declined = keys.declined ? 1 : 0;
    const device = keys.identifiers.device !== undefined;
    const cardsDevice = n("cards_device_1h") + 1;
    const cardsIp = n("cards_ip_1h") + 1;
    const declinesDevice = n("declines_device_1h") + declined;
    const declinesIp = n("declines_ip_1h") + declined;
    const declinesCard = n("declines_card_24h") + declined;
    if (device) {
      facts["device.cards_1h"] = cardsDevice;
      facts["device.declines_1h"] = declinesDevice;
    }
    facts["ip.cards_1h"] = cardsIp;
    facts["ip.declines_1h"] = declinesIp;
    if (keys.subject) facts["user.cards_30d"] = n("cards_account_30d") + 1;
    facts["card.declines_24h"] = declinesCard;
    facts["payment.small_amount"] = a.payment.amount < smallAmountMinor();
    // A burst from one device, else from one address (which many people may share: twice the cards).
    const burst =
      device && cardsDevice >= CARD_TESTING_CARDS && declinesDevice >= CARD_TESTING_DECLINES
        ? { cards: cardsDevice, declines: declinesDevice, from: "this device" }
        : cardsIp >= CARD_TESTING_CARDS * 2 && declinesIp >= CARD_TESTING_DECLINES * 2
          ? {
              cards: cardsIp,
              declines: declinesIp,
              // An IPv6 address counts with its /64 (./identity-keys.ts): the reason names the network.
              from: keys.ip?.endsWith("/64") ? `the IPv6 network ${keys.ip}` : "this IP address",
            }
          : null;
    if (burst)
      signals.push({
        code: "card_testing",
        weight: SIGNALS.card_testing.weight,
        reason: `${burst.cards} different cards from ${burst.from} in an hour, ${burst.declines} declined: card testing (stolen card numbers tried one after another). Refund or void what succeeded; the card_testing rule pack, once enabled, blocks such a burst from one device and challenges one from an address.`,
        evidence: ["workspace-events"],
      });
    if (declinesCard >= CARD_DECLINES_AT)
      signals.push({
        code: "card_declines",
        weight: SIGNALS.card_declines.weight,
        reason: `This card (BIN ${a.payment.bin}, ending ${a.payment.last4}) was declined ${plural(declinesCard, "time")} in 24 hours.`,
        evidence: ["workspace-events"],
      });
    payment = paymentSummary(a.payment);
  }
  return { facts: facts as Facts, signals, linked, payment };
}

export interface PaymentSummary {
  bin: string;
  last4: string;
  brand: string | null;
  brand_name: string | null;
  issuer_country: null;
  funding: null;
  note: string;
  amount: number;
  currency: string;
  status: string;
  decline_code: string | null;
}

/** The payment as the answer and the stored event show it: never more of the card than BIN and last four. */
export function paymentSummary(p: PaymentInput): PaymentSummary {
  const info = binInfo(p.bin);
  return {
    bin: p.bin,
    last4: p.last4,
    brand: info.brand,
    brand_name: info.brand_name,
    issuer_country: null,
    funding: null,
    note: `${info.brand_name ? `Brand ${info.brand_name} from the BIN's range` : "The brand is not known from this BIN"}; the issuing bank's country and whether the card is credit, debit or prepaid are unknown (no BIN table is shipped).`,
    amount: p.amount,
    currency: p.currency,
    status: p.status,
    decline_code: p.decline_code ?? null,
  };
}
