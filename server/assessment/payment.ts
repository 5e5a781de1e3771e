// The `payment` of a checkout or payment assessment (issue 45, item 4): what a processor tells about a card attempt,
// without the card. A full card number anywhere in it is refused before anything else looks at it, with a message
// that never repeats it, so it reaches neither the store, the log nor the answer (PCI DSS keeps a full number out of
// systems that do not need it; the BIN and last four are what may be kept). The brand comes from the BIN's prefix
// ranges (credit-card-type, MIT); we ship no BIN table, so the issuer's country and the card's funding type
// (credit, debit, prepaid) are said to be unknown rather than guessed.
import creditCardType from "credit-card-type";
import { z } from "zod";
import { AppError } from "../errors";

export const PAYMENT_STATUSES = ["succeeded", "failed", "declined"] as const;

/** The message of a refused card number: names the field, never the digits. */
export const FULL_CARD_NUMBER_MESSAGE =
  "holds what looks like a full card number: send only the card's BIN (its first 6 to 8 digits) as `bin` and its last four digits as `last4`. The number was not stored or logged.";

/** Luhn's check digit test (ISO/IEC 7812-1) over a string of digits. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** A run's digit groups (see holdsFullCardNumber): all of them, or some side by side of a known brand's prefix. */
function runHoldsCardNumber(groups: string[]): boolean {
  const isCard = (digits: string) => digits.length >= 13 && digits.length <= 19 && passesLuhn(digits);
  if (isCard(groups.join(""))) return true;
  for (let from = 0; from < groups.length; from++) {
    let digits = "";
    for (let to = from; to < groups.length && digits.length < 19; to++) {
      digits += groups[to];
      if ((from > 0 || to < groups.length - 1) && isCard(digits) && creditCardType(digits).length > 0) return true;
    }
  }
  return false;
}

/**
 * Whether a value holds a full card number, in any string, number or key at any depth. Digits are read in runs: groups
 * of digits with up to three separators (anything but a letter or a digit: a space, a dash, a dot, an underscore, a
 * slash...) between two groups, as people and systems write them (`4111 1111 1111 1111`, `4111--1111--...`). A run
 * holds a card number when all its digits are 13 to 19 passing Luhn, or when some of its whole groups side by side
 * are, of a known card brand's prefix: the number beside its expiry (`4111111111111111/1228`) or its CVC. A run that
 * touches a letter is part of a token (a processor's `card_1Nv0...`, `tok4111...`, a hex digest) and is not read as one;
 * neither is a run of more than 19 digits with no separator (an order number, a hash).
 */
export function holdsFullCardNumber(value: unknown, depth = 0): boolean {
  if (depth > 8) return false;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return false;
    // Above 2^53 a JSON number no longer holds its digits exactly (a 19-digit card number arrives rounded and fails
    // Luhn): a whole number of 16 to 19 digits that cannot be read exactly is refused as one might be.
    const size = Math.abs(value);
    if (size > Number.MAX_SAFE_INTEGER && size < 1e19) return true;
    return holdsFullCardNumber(value.toFixed(0), depth);
  }
  if (typeof value === "string") {
    for (const m of value.matchAll(/\d+(?:[^A-Za-z0-9]{1,3}\d+)*/g)) {
      const end = m.index + m[0].length;
      if (/[A-Za-z]/.test(value.charAt(m.index - 1)) || /[A-Za-z]/.test(value.charAt(end))) continue;
      if (runHoldsCardNumber(m[0].split(/\D+/))) return true;
    }
    return false;
  }
  if (Array.isArray(value)) return value.some((v) => holdsFullCardNumber(v, depth + 1));
  if (value && typeof value === "object")
    return Object.entries(value).some(
      ([k, v]) => holdsFullCardNumber(k, depth + 1) || holdsFullCardNumber(v, depth + 1),
    );
  return false;
}

const paymentFields = z
  .object({
    bin: z
      .string()
      .regex(/^\d{6,8}$/, "payment.bin must be the card's first 6 to 8 digits")
      .describe("The card's BIN (issuer identification number): its first 6 to 8 digits"),
    last4: z
      .string()
      .regex(/^\d{4}$/, "payment.last4 must be 4 digits")
      .describe("The card's last four digits"),
    fingerprint: z
      .string()
      .trim()
      .min(1)
      .max(128)
      .regex(/^[\x21-\x7e]+$/, "payment.fingerprint must be printable ASCII without spaces")
      .optional()
      .describe(
        "A stable identifier of the card: your processor's card fingerprint (Stripe's `card.fingerprint`, Adyen's `cardSummary` plus BIN...) or one you derive; without it the card is counted by BIN and last four, and links no accounts (many cards of one bank share those)",
      ),
    amount: z
      .number()
      .int("payment.amount is in minor units (cents): a whole number")
      .min(0)
      .max(1e12)
      .describe("The amount in minor units of `currency` (1999 for 19.99 EUR)"),
    currency: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{3}$/, "payment.currency must be an ISO 4217 code")
      .transform((s) => s.toUpperCase())
      .describe("ISO 4217 currency code"),
    status: z.enum(PAYMENT_STATUSES).describe("What the processor answered: succeeded, failed or declined"),
    decline_code: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_.-]+$/, "payment.decline_code must be a code such as insufficient_funds")
      .optional()
      .describe(
        "The processor's decline code, e.g. `card_declined`, `insufficient_funds`, `incorrect_cvc`; only with status failed or declined",
      ),
  })
  .strict()
  // A decline code beside a success contradicts itself: the caller's mapping of its processor's answer is wrong, and
  // storing it would show a paid attempt as declined.
  .refine((p) => p.decline_code === undefined || p.status !== "succeeded", {
    path: ["decline_code"],
    message: "payment.decline_code is for a failed or declined attempt; a succeeded one has none",
  });

/**
 * The refusal of an input whose `payment` holds a full card number (400 INVALID_INPUT, worded as the schema's own,
 * below), or null. The ladder asks it before the input screen and the unknown-field check (MetaContract.neverSent,
 * server/api/ladder.ts validateInput), so this refusal wins over another problem of the same input (an unknown
 * field, a control character) and the caller learns that the number must not be sent.
 */
export function fullCardNumberRefusal(input: unknown): AppError | null {
  const payment = input && typeof input === "object" ? (input as { payment?: unknown }).payment : undefined;
  return holdsFullCardNumber(payment) ? new AppError("INVALID_INPUT", `payment: ${FULL_CARD_NUMBER_MESSAGE}`) : null;
}

/** `payment` of the request: a card number anywhere in it is refused alone, before its fields are read. */
export const paymentSchema = z.preprocess((v, ctx) => {
  if (holdsFullCardNumber(v)) {
    ctx.addIssue({
      code: "custom",
      message: FULL_CARD_NUMBER_MESSAGE,
      input: undefined,
      // 400 INVALID_INPUT, not the INVALID_REQUEST of other bad input (server/errors.ts): this input must never be sent.
      params: { errorCode: "INVALID_INPUT" },
    });
    return z.NEVER;
  }
  return v;
}, paymentFields);

export type PaymentInput = z.output<typeof paymentFields>;

/** Statuses counted as a decline by the decline counters: the issuer's refusal, or the processor's failure. */
export const isDecline = (p: PaymentInput) => p.status !== "succeeded";

/** The card as the store knows it: the processor's fingerprint, else its BIN and last four. */
export const cardKeyOf = (p: PaymentInput) => (p.fingerprint ? `fp:${p.fingerprint}` : `bin:${p.bin}:${p.last4}`);

type BinInfo = { brand: string | null; brand_name: string | null };

/**
 * Brands already found, by BIN: credit-card-type copies its whole table of brands on every call (about 1.5 % of a
 * checkout's CPU in the production server's profile), and a shop sees the same BINs again and again. Emptied when
 * it reaches BIN_CACHE_SIZE, so it never grows past it.
 */
const brandsByBin = new Map<string, Readonly<BinInfo>>();
const BIN_CACHE_SIZE = 10_000;

/** What the BIN tells: the brand from its prefix ranges; the issuer's country and funding type are not known. */
export function binInfo(bin: string): BinInfo {
  const known = brandsByBin.get(bin);
  if (known) return { ...known };
  // A 6-8 digit BIN fixes the brand where one range matches; several candidates mean we cannot say.
  const found = creditCardType(bin);
  const info: BinInfo =
    found.length === 1 ? { brand: found[0]!.type, brand_name: found[0]!.niceType } : { brand: null, brand_name: null };
  if (brandsByBin.size >= BIN_CACHE_SIZE) brandsByBin.clear();
  brandsByBin.set(bin, Object.freeze({ ...info }));
  return info;
}
