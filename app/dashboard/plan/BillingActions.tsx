"use client";
// Stripe mode: owners start Checkout for a plan (another Suite or Lookups tier changes the one tier subscription)
// and open the Customer Portal for payment methods, invoices and cancellation. The plan itself changes only when
// Stripe's verified event arrives.
import { useState } from "react";
import { ErrorNote } from "../_components/ErrorNote";
import { BusyButton } from "../_components/BusyButton";

const isTier = (p: string) => p.startsWith("suite_") || p.startsWith("lookups_");

async function post(path: string, body?: unknown): Promise<string> {
  const res = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body ?? {}),
  });
  const data = (await res.json().catch(() => null)) as {
    url?: string;
    error?: { code: string; message: string };
  } | null;
  if (!res.ok || !data?.url) {
    throw {
      message: data?.error?.message ?? "The payment page could not be opened; try again.",
      data: { appCode: data?.error?.code },
    };
  }
  return data.url;
}

export function BillingActions(p: {
  isOwner: boolean;
  held: string[];
  sellable: string[];
  hasBillingAccount: boolean;
  graceDays: number;
  planName: (slug: string) => string;
}) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const heldTier = p.held.find(isTier);
  const go = async (key: string, path: string, body?: unknown) => {
    setBusy(key);
    setError(null);
    try {
      window.location.assign(await post(path, body));
    } catch (err) {
      setError(err);
      setBusy(null);
    }
  };

  return (
    <>
      <p>
        Plans are paid through Stripe. A workspace holds at most one Suite or Lookups subscription (choosing another
        tier changes it, prorated) and optionally the Email subscription. If a payment fails, the plan stays for{" "}
        {p.graceDays} days while Stripe retries; a cancellation takes effect at the end of the paid period.
      </p>
      {!p.isOwner ? (
        <p className="notice">Only workspace owners manage billing.</p>
      ) : (
        <>
          <div className="row" style={{ flexWrap: "wrap", gap: "0.5rem" }} data-testid="billing-buttons">
            {p.sellable
              .filter((slug) => !p.held.includes(slug))
              .map((slug) => {
                const label =
                  slug === "email"
                    ? "Add the Email subscription"
                    : isTier(slug) && heldTier
                      ? `Switch to ${p.planName(slug)}`
                      : `Subscribe to ${p.planName(slug)}`;
                return (
                  <BusyButton
                    key={slug}
                    type="button"
                    className="btn"
                    busy={busy !== null}
                    onClick={() => void go(slug, "/api/billing/checkout", { plan: slug })}
                  >
                    {busy === slug ? "Opening…" : label}
                  </BusyButton>
                );
              })}
          </div>
          {p.hasBillingAccount ? (
            <p style={{ marginTop: "0.75rem" }}>
              <BusyButton
                type="button"
                className="btn btn-primary"
                busy={busy !== null}
                onClick={() => void go("portal", "/api/billing/portal")}
              >
                {busy === "portal" ? "Opening…" : "Manage billing (payment methods, invoices, cancellation)"}
              </BusyButton>
            </p>
          ) : null}
          <ErrorNote error={error} />
        </>
      )}
    </>
  );
}
