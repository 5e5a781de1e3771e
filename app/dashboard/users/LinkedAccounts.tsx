"use client";
// Linked accounts as a reviewer reads them: each other account with what it shares (a device, a mailbox, a phone
// number, a card) in words, linking to its own page. The case view and the user page both show it.
import Link from "next/link";
import { Country } from "../_components/answers/parts";
import { formatUtc, timeAgo } from "../_components/format";
import type { PaymentLine } from "../../../server/users/schemas";
import { accountHref } from "./AccountKind";

export interface Linked {
  account: string;
  key: "user_id" | "email";
  links: { kind: "device" | "email" | "phone" | "card"; value: string }[];
  last_linked_at: string;
}

export const KIND_WORDS = { device: "device", email: "mailbox", phone: "phone number", card: "card" } as const;

/** "same device dev_8f2c and card 411111…1111" */
export function linkWords(links: Linked["links"]): string {
  return `same ${links.map((l) => `${KIND_WORDS[l.kind]} ${l.value}`).join(" and ")}`;
}

export function LinkedAccounts({ linked }: { linked: Linked[] }) {
  if (linked.length === 0)
    return (
      <p className="muted small" data-testid="linked-none">
        No other account shared this account&apos;s devices, mailboxes, phone numbers or cards in the last 30 days.
      </p>
    );
  return (
    <ul className="small linked-accounts" data-testid="linked-accounts">
      {linked.map((l) => (
        <li key={`${l.key}:${l.account}`} data-testid="linked-account">
          {/* An account known by its email address opens by it as well (GET /users/{user_id} reads an address), as
              that kind: the same address may also have been sent as a user id, another account (?key=email). */}
          <Link href={accountHref(l.account, l.key)}>
            <strong>{l.account}</strong>
          </Link>{" "}
          · {linkWords(l.links)} ·{" "}
          <time dateTime={l.last_linked_at} title={formatUtc(l.last_linked_at)}>
            last {timeAgo(l.last_linked_at)}
          </time>
        </li>
      ))}
    </ul>
  );
}

/** "Visa 411111…1111, 49.99 EUR, declined (do_not_honor)": amounts are stored in minor units. */
export function paymentWords(p: PaymentLine): string {
  let major: string;
  try {
    const digits = new Intl.NumberFormat("en", { style: "currency", currency: p.currency }).resolvedOptions()
      .maximumFractionDigits;
    major = (p.amount / 10 ** (digits ?? 2)).toFixed(digits ?? 2);
  } catch {
    major = (p.amount / 100).toFixed(2);
  }
  const status = p.status === "succeeded" ? "paid" : p.status;
  return `${p.brand_name ?? "Card"} ${p.bin}…${p.last4}, ${major} ${p.currency}, ${status}${p.decline_code ? ` (${p.decline_code.replace(/_/g, " ")})` : ""}`;
}

/** An assessment of the account's history as both views list it (the case view and the user page). */
export interface AssessmentLine {
  event: string;
  status?: string | null;
  ip?: string | null;
  country?: string | null;
  score?: number | null;
  decision?: string | null;
  payment?: PaymentLine | null;
}

/**
 * "login (failed) from 203.0.113.5 in Germany, score 40, review · Visa 411111…1111, 49.99 EUR, declined": the words of
 * one assessment; `unknownIp` is what stands for an address the assessment did not record.
 */
export function AssessmentWords({ h, unknownIp }: { h: AssessmentLine; unknownIp: string }) {
  return (
    <>
      {h.event}
      {h.status === "failed" ? " (failed)" : ""} from {h.ip ?? unknownIp}
      {h.country ? (
        <>
          {" "}
          in <Country code={h.country} />
        </>
      ) : null}
      , score {h.score}, {h.decision}
      {h.payment ? ` · ${paymentWords(h.payment)}` : ""}
    </>
  );
}
