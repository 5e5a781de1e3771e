"use client";
// One webhook: its settings (edit, delete with an in-page confirmation), a test event, and its delivery log.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { carryDoneNotice } from "../../_components/DoneNotice";
import { ConfirmQuestion } from "../../_components/ConfirmQuestion";
import { ErrorNote, ReadFailed } from "../../_components/ErrorNote";
import { inFormWords } from "../../_components/field-words";
import { formatUtc } from "../../_components/format";
import { useTRPC } from "../../_components/trpc";
import { isPlanRefusal, PlanGate } from "../../_components/PlanGate";
import { EVENT_TYPE_LABELS, WEBHOOK_LABELS, WebhookForm, type WebhookEventType } from "../WebhookForm";
import { WEBHOOK_PLANS } from "../WebhooksView";
import { DeliveryLog } from "./DeliveryLog";
import { BusyButton } from "../../_components/BusyButton";

export function WebhookDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const list = useQuery(trpc.webhooks.list.queryOptions({}));
  const hook = list.data?.items.find((w) => w.id === id);
  const refreshList = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.pathKey() });
  // Saving closes the form with the button pressed in it: the focus goes back to Edit, the button that opened it.
  const editButton = useRef<HTMLButtonElement>(null);
  const update = useMutation(
    trpc.webhooks.update.mutationOptions({
      onSuccess: () => {
        setEditing(false);
        editButton.current?.focus();
        void refreshList();
      },
    }),
  );
  const remove = useMutation(
    trpc.webhooks.delete.mutationOptions({
      onSuccess: () => {
        void refreshList();
        // The list says which webhook went, with the focus on that line (the button pressed is gone).
        carryDoneNotice("/dashboard/webhooks", hook ? `Deleted “${hook.name}”.` : "Deleted the webhook.");
        router.push("/dashboard/webhooks");
      },
    }),
  );
  const test = useMutation(
    trpc.webhooks.sendTest.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() }),
    }),
  );

  if (isPlanRefusal(list.error)) return <PlanGate feature="Webhooks" plans={WEBHOOK_PLANS} />;
  return (
    <>
      <p className="small">
        <Link href="/dashboard/webhooks">← All webhooks</Link>
      </p>
      {/* The page has a title while the webhook is read, could not be read or is not found. */}
      {hook ? null : <h1>Webhook</h1>}
      <ReadFailed what="The webhook" query={list} />
      {list.isPending ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : null}
      {list.data && !hook ? (
        <p className="notice" data-testid="webhook-missing">
          This webhook does not exist in this workspace (it may have been deleted).
        </p>
      ) : null}
      {hook ? (
        <>
          <h1>{hook.name}</h1>
          <section className="card">
            {editing ? (
              <WebhookForm
                initial={{
                  name: hook.name,
                  url: hook.url,
                  event_types: hook.event_types.filter((t): t is WebhookEventType => t in EVENT_TYPE_LABELS),
                }}
                submitLabel="Save changes"
                pending={update.isPending}
                error={update.error}
                onSubmit={(f) => update.mutate({ id, ...f })}
              />
            ) : (
              <dl className="facts">
                <dt>Receiver</dt>
                <dd className="break" data-testid="webhook-url">
                  {hook.url}
                </dd>
                <dt>Events</dt>
                <dd data-testid="webhook-events">
                  {hook.event_types
                    .map((t) => (t in EVENT_TYPE_LABELS ? EVENT_TYPE_LABELS[t as WebhookEventType] : t))
                    .join(", ")}
                </dd>
                <dt>Created</dt>
                <dd>{formatUtc(hook.created_at)}</dd>
              </dl>
            )}
            <ErrorNote error={remove.error ?? test.error} words={(m) => inFormWords(m, WEBHOOK_LABELS)} />
            <div className="row">
              <BusyButton
                type="button"
                className="btn btn-primary"
                busy={test.isPending}
                onClick={() => test.mutate({ id })}
              >
                Send test event
              </BusyButton>
              <button
                type="button"
                className="btn"
                onClick={() => (update.reset(), setEditing(!editing))}
                ref={editButton}
              >
                {editing ? "Cancel editing" : "Edit"}
              </button>
              <button type="button" className="btn btn-danger" onClick={() => setConfirming(true)} data-confirm-trigger>
                Delete
              </button>
            </div>
            {test.data ? (
              <p className="muted small" role="status" data-testid="test-queued">
                Test event queued; it appears in the log below.
              </p>
            ) : null}
            {confirming ? (
              <ConfirmQuestion
                label={`Delete ${hook.name}`}
                question={<span>Delete “{hook.name}” and its delivery log? Queued deliveries stop.</span>}
                cancelLabel="Keep it"
                onCancel={() => setConfirming(false)}
              >
                <BusyButton
                  type="button"
                  className="btn btn-danger"
                  busy={remove.isPending}
                  onClick={() => remove.mutate({ id })}
                >
                  Yes, delete
                </BusyButton>
              </ConfirmQuestion>
            ) : null}
          </section>
          <DeliveryLog webhookId={id} />
        </>
      ) : null}
    </>
  );
}
