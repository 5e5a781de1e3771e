"use client";
// Where a monitor's alerts go: email (on or off; the workspace's owners or chosen members), webhooks subscribed to
// monitor.alert / monitor.resolved (set up on the webhooks page, on a plan that includes webhooks), and the event log.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { ErrorNote, ReadFailed } from "../_components/ErrorNote";
import { useTRPC } from "../_components/trpc";
import { BusyButton } from "../_components/BusyButton";
import { EVENT_TYPE_LABELS } from "../webhooks/WebhookForm";
import { WEBHOOK_PLANS } from "../webhooks/WebhooksView";

export interface EmailAlerts {
  available: boolean;
  enabled: boolean;
  recipients: "owners" | string[];
  unsubscribed: string[];
}

function EmailSettings({ id, current }: { id: string; current: EmailAlerts }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const members = useQuery(trpc.account.members.queryOptions());
  const [enabled, setEnabled] = useState(current.enabled);
  const [who, setWho] = useState<"owners" | "chosen">(current.recipients === "owners" ? "owners" : "chosen");
  const [chosen, setChosen] = useState<string[]>(current.recipients === "owners" ? [] : current.recipients);
  // Sending to chosen members with none chosen would send to nobody: saving waits for a choice, and says so.
  const noneChosen = enabled && who === "chosen" && chosen.length === 0;
  const save = useMutation(
    trpc.monitors.update.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.monitors.pathKey() }),
    }),
  );
  return (
    <form
      className="monitor-form alert-email"
      aria-labelledby="email-alerts-heading"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ id, email_alerts: { enabled, recipients: who === "owners" ? "owners" : chosen } });
      }}
    >
      <h3 id="email-alerts-heading">Email</h3>
      {current.available ? null : (
        <p className="notice small">
          This service has no mail server set up, so no alert email is sent; the settings are kept for when it has.
        </p>
      )}
      <label className="check-option">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        <span>Send this monitor&apos;s alerts by email</span>
      </label>
      <fieldset disabled={!enabled}>
        <legend>Who receives them</legend>
        <label className="check-option">
          <input type="radio" name="recipients" checked={who === "owners"} onChange={() => setWho("owners")} />
          <span>The workspace&apos;s owners</span>
        </label>
        <label className="check-option">
          <input type="radio" name="recipients" checked={who === "chosen"} onChange={() => setWho("chosen")} />
          <span>Chosen members</span>
        </label>
        {who === "chosen"
          ? members.data?.map((m) => (
              <label key={m.id} className="check-option" style={{ marginLeft: "1.5rem" }}>
                <input
                  type="checkbox"
                  checked={chosen.includes(m.email)}
                  onChange={(e) =>
                    setChosen((c) => (e.target.checked ? [...c, m.email] : c.filter((x) => x !== m.email)))
                  }
                />
                <span className="break">
                  {m.email} <span className="muted small">({m.role})</span>
                </span>
              </label>
            ))
          : null}
      </fieldset>
      {current.unsubscribed.length ? (
        <p className="small">
          Unsubscribed from this monitor&apos;s emails (they receive none): {current.unsubscribed.join(", ")}
        </p>
      ) : null}
      <div className="row">
        <BusyButton
          type="submit"
          className="btn"
          disabled={noneChosen}
          busy={save.isPending}
          busyLabel="Saving…"
          aria-describedby={noneChosen ? "email-save-why" : undefined}
        >
          Save email settings
        </BusyButton>
        {noneChosen ? (
          <span className="small muted" id="email-save-why" data-testid="email-save-why">
            Choose at least one member to receive the alerts, or send them to the owners.
          </span>
        ) : null}
        {save.isSuccess && !save.isPending ? (
          <span className="small" role="status">
            Saved.
          </span>
        ) : null}
      </div>
      <ReadFailed what="The members" query={members} />
      <ErrorNote error={save.error} />
    </form>
  );
}

/**
 * How alerts reach the workspace's systems: a webhook set up on the webhooks page, or, on a plan without webhooks,
 * that the plan does not include them (as the webhooks page says), not a way to a page whose form the plan refuses.
 */
function WebhookAlerts() {
  const trpc = useTRPC();
  const overview = useQuery(trpc.account.overview.queryOptions());
  const eventLog = (
    <>
      Every alert is also an event in the <Link href="/dashboard/events">event log</Link>.
    </>
  );
  const webhooks = overview.data?.entitlements.webhooks;
  if (webhooks === undefined) return <p>{eventLog}</p>;
  if (!webhooks)
    return (
      <p data-testid="alert-webhooks-plan">
        To have alerts sent to your systems by webhook: webhooks {WEBHOOK_PLANS}, and this workspace&apos;s plan does
        not include them. <Link href="/dashboard/plan">See the workspace&apos;s plan</Link>. {eventLog}
      </p>
    );
  return (
    <p>
      To have alerts sent to your systems, add a webhook on the <Link href="/dashboard/webhooks">webhooks page</Link>{" "}
      with the events “{EVENT_TYPE_LABELS["monitor.alert"]}” (<code>monitor.alert</code>: a change, a reminder, a
      skipped run) and “{EVENT_TYPE_LABELS["monitor.resolved"]}” (<code>monitor.resolved</code>: a problem cleared).
      Webhooks apply to all the workspace&apos;s monitors. {eventLog}
    </p>
  );
}

export function AlertSettings({ id, emailAlerts }: { id: string; emailAlerts: EmailAlerts }) {
  return (
    <section className="card" aria-labelledby="alert-settings-heading" data-testid="alert-settings">
      <h2 id="alert-settings-heading">Alert settings</h2>
      <EmailSettings id={id} current={emailAlerts} />
      <h3 className="alert-webhooks-heading">Webhooks</h3>
      <WebhookAlerts />
    </section>
  );
}
