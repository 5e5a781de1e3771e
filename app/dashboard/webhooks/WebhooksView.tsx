"use client";
// The workspace's webhooks: create one (its signing secret is shown once, with a copy button), and open each for
// its settings and delivery log. Same procedures as /v1/webhooks.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { describePlans, WEBHOOK_PLANS as webhookPlans } from "../../../server/api/contract-text";
import { ShownOnce } from "../_components/ShownOnceKey";
import { useDoneNotice } from "../_components/DoneNotice";
import { ReadFailed } from "../_components/ErrorNote";
import { formatUtc } from "../_components/format";
import { useTRPC } from "../_components/trpc";
import { isPlanRefusal, PlanGate } from "../_components/PlanGate";
import { WebhookForm } from "./WebhookForm";

/** Which plans have webhooks, from the plan catalog. */
export const WEBHOOK_PLANS = `need ${describePlans(webhookPlans())}`;

export function WebhooksView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.webhooks.list.queryOptions({}));
  // A webhook deleted on its page sends the user here, to a line that says so (WebhookDetail).
  const done = useDoneNotice();
  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.pathKey() }),
    }),
  );

  return (
    <>
      <h1>Webhooks</h1>
      <p className="muted small" data-testid="webhooks-intro">
        When an assessment comes out high or critical, a review case is resolved, or a monitor raises or resolves an
        alert, each webhook subscribed to that event gets a signed POST (Standard Webhooks: <code>webhook-id</code>,{" "}
        <code>webhook-timestamp</code>, <code>webhook-signature</code>). Failed deliveries are retried for about a day.
      </p>
      {isPlanRefusal(list.error) ? (
        <PlanGate feature="Webhooks" plans={WEBHOOK_PLANS} />
      ) : (
        <>
          {/* Whether the plan has webhooks is known from the list's answer: until then no form, which a plan without
              them would swap for the refusal a moment later. */}
          {list.isPending ? null : (
            <section className="card">
              <h2>New webhook</h2>
              <WebhookForm
                key={create.data?.id ?? "new"}
                submitLabel="Create webhook"
                pending={create.isPending}
                error={create.error}
                onSubmit={(f) => create.mutate(f)}
              />
              {create.data ? (
                <ShownOnce
                  secret={create.data.secret}
                  title={
                    <>
                      <strong>Signing secret of “{create.data.name}”.</strong> Copy it now: it is shown only once.
                    </>
                  }
                  copyLabel="Copy secret"
                  testId="webhook-secret-box"
                  secretTestId="webhook-secret"
                >
                  <p className="small">
                    <Link href={`/dashboard/webhooks/${create.data.id}`}>Open the webhook</Link>
                  </p>
                </ShownOnce>
              ) : null}
            </section>
          )}
          <section className="card">
            <h2>Webhooks</h2>
            {done.notice}
            {/* A failed read says so with Retry when reading again may work (ReadFailed), never as an empty list. */}
            <ReadFailed what="The webhooks" query={list} testId="webhooks-read-failed" />
            {list.isPending ? (
              <p className="muted" role="status">
                Loading webhooks…
              </p>
            ) : null}
            {list.data && list.data.items.length === 0 ? (
              <p className="muted" data-testid="webhooks-empty">
                No webhooks yet. Create one above to hear about risky events as they happen.
              </p>
            ) : null}
            {list.data && list.data.items.length > 0 ? (
              <div className="table-scroll">
                <table className="list cards" data-testid="webhooks-table">
                  <thead>
                    <tr>
                      <th>Name</th>
                      <th>Receiver</th>
                      <th>Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.data.items.map((w) => (
                      <tr key={w.id} data-testid="webhook-row">
                        <td data-label="Name">
                          <Link href={`/dashboard/webhooks/${w.id}`}>{w.name}</Link>
                        </td>
                        <td className="break" data-label="Receiver">
                          {w.url}
                        </td>
                        <td data-label="Created">{formatUtc(w.created_at)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : null}
          </section>
        </>
      )}
    </>
  );
}
