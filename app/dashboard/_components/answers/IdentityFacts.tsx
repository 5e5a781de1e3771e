"use client";
// The identity and payment parts of an assessment's answer (issue 45): the phone number as the numbering plans read
// it, the card attempt as stored (BIN and last four, never more), and the other accounts sharing this request's
// device, mailbox, phone number or card, in words. A saved report of an older assessment has none of them.
import type { AssessResult } from "../../../../server/assessment/schemas";
import { KIND_WORDS, paymentWords } from "../../users/LinkedAccounts";
import { PHONE_TYPE_WORDS } from "../phone-words";
import { cardNote } from "./card-words";
import { Country, Facts } from "./parts";

const yesNoUnknown = (v: boolean | null | undefined) => (v == null ? "unknown" : v ? "yes" : "no");

export function IdentityFacts({ result }: { result: AssessResult }) {
  const { phone, payment, linked_accounts: linked } = result;
  if (!phone && !payment && !linked) return null;
  return (
    <div className="grid-2">
      {phone ? (
        <div className="card" data-testid="phone-facts">
          <h2>Phone</h2>
          <p>
            <code>{phone.number}</code>
            {phone.valid ? (
              <>
                {" "}
                · {PHONE_TYPE_WORDS[phone.type] ?? phone.type}
                {phone.country ? (
                  <>
                    {" "}
                    · <Country code={phone.country} />
                  </>
                ) : null}
              </>
            ) : (
              " · not a valid number"
            )}
          </p>
          <Facts
            rows={[
              ["Valid", phone.valid ? "yes" : "no"],
              ["International form", phone.e164],
              ["Same country as the IP address", yesNoUnknown(phone.country_matches_ip)],
            ]}
          />
        </div>
      ) : null}
      {payment ? (
        <div className="card" data-testid="payment-facts">
          <h2>Payment</h2>
          <p>{paymentWords(payment)}</p>
          <p className="muted small">{cardNote(payment)}</p>
        </div>
      ) : null}
      {linked ? (
        <div className="card" data-testid="linked-facts">
          <h2>Linked accounts</h2>
          {linked.accounts_30d === 0 ? (
            <p className="muted small">
              No other account shared this request&apos;s device, mailbox, phone or card in 30 days.
            </p>
          ) : (
            <>
              <p>
                {linked.accounts_30d} other account{linked.accounts_30d === 1 ? "" : "s"} in the last 30 days.
              </p>
              <ul className="small">
                {linked.by.map((b) => (
                  <li key={b.kind}>
                    Same {KIND_WORDS[b.kind]}: {b.names.join(", ")}
                    {b.accounts_30d > b.names.length ? ` and ${b.accounts_30d - b.names.length} more` : ""}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      ) : null}
    </div>
  );
}
