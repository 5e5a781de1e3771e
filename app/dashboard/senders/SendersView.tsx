"use client";
// Senders: the domains (or single addresses) this workspace sends email from. An owner adds one, publishes the
// TXT record shown, verifies, and from then on its SPF, DKIM, DMARC and blocklist posture is checked daily while
// it holds one of the plan's sender slots. Members see the list.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { ConfirmQuestion } from "../_components/ConfirmQuestion";
import { ReadFailed } from "../_components/ErrorNote";
import { CopyButton } from "../_components/CopyButton";
import { useRefusalAtField } from "../_components/field-problem";
import { inFormWords } from "../_components/field-words";
import { formatUtc } from "../_components/format";
import { PlanGate } from "../_components/PlanGate";
import { useTRPC } from "../_components/trpc";
import { OverallBadge, PostureBadges, type Posture } from "./PostureBadges";
import "./senders.css";
import { BusyButton } from "../_components/BusyButton";
import { useDoneNotice } from "../_components/DoneNotice";

type Sender = {
  id: string;
  kind: "domain" | "address";
  domain: string;
  address: string | null;
  dkim_selectors: string[];
  status: "pending" | "verified";
  verification: { type: "TXT"; name: string; value: string };
  monitored: boolean;
  not_monitored_reason: string | null;
  posture: Posture | null;
  last_checked_at: string | null;
};

/** A failed call's message in words; never the raw error code. */
export function Problem({
  error,
  testId,
  labels,
  id,
}: {
  error: unknown;
  testId?: string;
  /** The form's fields as it labels them: the API's "domain: …" is said of the Domain field. */
  labels?: Record<string, string>;
  /** The id the refused field names in its aria-describedby (field-problem.ts); the note can then take focus. */
  id?: string;
}) {
  if (!error) return null;
  const raw = (error as { message?: string } | null)?.message;
  const message = raw && labels ? inFormWords(raw, labels) : raw;
  return (
    <p className="error" role="alert" data-testid={testId ?? "senders-error"} id={id} tabIndex={id ? -1 : undefined}>
      {message && message.length < 300 ? message : "Something went wrong; try again."}
    </p>
  );
}

const SENDER_LABELS: Record<string, string> = {
  domain: "Domain",
  address: "Address",
  dkim_selectors: "DKIM selectors",
};

function AddSenderForm({ onAdded }: { onAdded: () => void }) {
  const trpc = useTRPC();
  const [kind, setKind] = useState<"domain" | "address">("domain");
  const [value, setValue] = useState("");
  const [selectors, setSelectors] = useState("");
  const add = useMutation(
    trpc.senders.add.mutationOptions({
      onSuccess: () => {
        setValue("");
        setSelectors("");
        onAdded();
      },
    }),
  );
  const refusal = useRefusalAtField(add.error, { labels: SENDER_LABELS, main: kind });
  return (
    <form
      className="card sender-form"
      onSubmit={(e) => {
        e.preventDefault();
        const dkim_selectors = selectors.split(/[\s,]+/).filter(Boolean);
        add.mutate(kind === "domain" ? { domain: value, dkim_selectors } : { address: value, dkim_selectors });
      }}
    >
      <h2>Add a sender</h2>
      <fieldset className="sender-kind">
        <legend className="small muted">What do you send from?</legend>
        <label>
          <input type="radio" name="senderKind" checked={kind === "domain"} onChange={() => setKind("domain")} /> A
          whole domain
        </label>
        <label>
          <input type="radio" name="senderKind" checked={kind === "address"} onChange={() => setKind("address")} /> One
          address
        </label>
      </fieldset>
      <label>
        {kind === "domain" ? "Domain" : "Address"}
        <input
          name="senderValue"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          required
          maxLength={254}
          placeholder={kind === "domain" ? "example.com" : "billing@example.com"}
          type={kind === "domain" ? "text" : "email"}
          {...refusal.fieldProps(["domain", "address"])}
        />
      </label>
      <label>
        DKIM selectors (optional)
        <input
          name="dkimSelectors"
          value={selectors}
          onChange={(e) => setSelectors(e.target.value)}
          maxLength={300}
          placeholder="s1, google"
          {...refusal.fieldProps("dkim_selectors", "dkim-selectors-hint")}
        />
        <span className="small muted" id="dkim-selectors-hint">
          Your mail provider names them; without any, common selectors are tried.
        </span>
      </label>
      <div>
        <BusyButton type="submit" className="btn btn-primary" busy={add.isPending} busyLabel="Adding…">
          Add sender
        </BusyButton>
      </div>
      <Problem error={add.error} testId="add-sender-error" labels={SENDER_LABELS} id={refusal.noteId} />
    </form>
  );
}

function SenderCard({
  s,
  isOwner,
  onChanged,
  onRemoved,
}: {
  s: Sender;
  isOwner: boolean;
  onChanged: () => void;
  onRemoved: (title: string) => void;
}) {
  const trpc = useTRPC();
  const [confirming, setConfirming] = useState(false);
  // Verified, the card loses its Verify button (the one pressed): the focus goes to its heading, to read it anew.
  const heading = useRef<HTMLHeadingElement>(null);
  const verify = useMutation(
    trpc.senders.verify.mutationOptions({
      onSuccess: () => {
        onChanged();
        heading.current?.focus();
      },
    }),
  );
  const remove = useMutation(trpc.senders.remove.mutationOptions({ onSuccess: onChanged }));
  const title = s.address ?? s.domain;
  return (
    <li className="card sender-card" data-testid="sender-card" data-sender={title}>
      <div className="sender-head">
        <h3 className="sender-title" ref={heading} tabIndex={-1}>
          {title}
        </h3>
        {s.status === "pending" ? (
          <span className="badge badge-pending">Waiting for verification</span>
        ) : s.posture && s.monitored ? (
          <OverallBadge status={s.posture.overall} />
        ) : (
          <span className="badge badge-active">Verified</span>
        )}
        {s.status === "verified" && !s.monitored ? (
          <span className="badge badge-paused" data-testid="not-monitored">
            Not monitored
          </span>
        ) : null}
      </div>
      {s.status === "pending" ? (
        <div className="sender-record" data-testid="verification-record">
          <p className="small">
            Publish this TXT record at your DNS provider, then verify.{" "}
            {s.kind === "address" ? `It proves you control ${s.domain}.` : null}
          </p>
          <dl>
            <dt>Type</dt>
            <dd>TXT</dd>
            <dt>Name</dt>
            <dd className="record-value">
              <code data-testid="record-name">{s.verification.name}</code>{" "}
              <CopyButton text={s.verification.name} label="Copy name" />
            </dd>
            <dt>Value</dt>
            <dd className="record-value">
              <code data-testid="record-value">{s.verification.value}</code>{" "}
              <CopyButton text={s.verification.value} label="Copy value" />
            </dd>
          </dl>
        </div>
      ) : null}
      {s.not_monitored_reason && s.status === "verified" ? (
        <p className="small sender-note">{s.not_monitored_reason}</p>
      ) : null}
      {s.status === "verified" && s.monitored && !s.posture ? (
        <p className="small muted">The first check has not finished yet; it runs daily.</p>
      ) : null}
      {s.posture ? <PostureBadges posture={s.posture} /> : null}
      <p className="small muted">
        {s.dkim_selectors.length ? `DKIM selectors: ${s.dkim_selectors.join(", ")}. ` : ""}
        {s.last_checked_at ? `Last checked ${formatUtc(s.last_checked_at)}; checked daily.` : null}
      </p>
      <Problem error={verify.error ?? remove.error} testId="sender-error" />
      {isOwner ? (
        <div className="sender-actions">
          {s.status === "pending" ? (
            <BusyButton
              type="button"
              className="btn btn-primary"
              busy={verify.isPending}
              busyLabel="Looking up the record…"
              onClick={() => verify.mutate({ id: s.id })}
            >
              Verify
            </BusyButton>
          ) : null}
          {confirming ? (
            <ConfirmQuestion
              label={`Remove ${title}`}
              question={<span className="small">Remove {title}? Its monitoring stops.</span>}
              onCancel={() => setConfirming(false)}
            >
              <BusyButton
                type="button"
                className="btn btn-danger"
                busy={remove.isPending}
                onClick={() => remove.mutate({ id: s.id }, { onSuccess: () => onRemoved(title) })}
              >
                Yes, remove
              </BusyButton>
            </ConfirmQuestion>
          ) : (
            <button type="button" className="btn btn-danger" onClick={() => setConfirming(true)} data-confirm-trigger>
              Remove
            </button>
          )}
        </div>
      ) : null}
    </li>
  );
}

export function SendersView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overview = useQuery(trpc.account.overview.queryOptions());
  const list = useQuery(trpc.senders.list.queryOptions());
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.senders.list.queryKey() });
  // A removed sender's card goes, with the button pressed in it: a line says which and takes the focus.
  const done = useDoneNotice();
  const isOwner = overview.data?.role === "owner";
  const data = list.data;
  const senders = (data?.items ?? []) as Sender[];
  const full = data ? data.used >= data.slots : false;

  return (
    <>
      <h1>Senders</h1>
      <p className="muted small">
        The domains and addresses you send email from. Once verified, each is checked daily for SPF, DKIM, DMARC and
        blocklist listings, and you see here what to fix. Monitoring uses no lookup units.
      </p>
      {list.isPending ? (
        <p className="muted" data-testid="senders-loading">
          Loading senders…
        </p>
      ) : null}
      <ReadFailed what="The senders" query={list} testId="senders-read-error" />
      {/* Without the role, the owner's form would be missing without a word. */}
      <ReadFailed what="Your role in this workspace" query={overview} />
      {data ? (
        data.slots === 0 ? (
          <PlanGate
            testId="no-slots"
            sentence={`This workspace's plan has no sender slots. They come with the ${data.plans_with_slots.join(", ")} plans.`}
          />
        ) : (
          <p className="notice" data-testid="slot-usage">
            {data.used} of {data.slots} sender slot{data.slots === 1 ? "" : "s"} in use
            {data.used > data.slots ? "; the newest senders beyond them are not monitored" : ""}.
          </p>
        )
      ) : null}
      {data && isOwner && data.slots > 0 && !full ? <AddSenderForm onAdded={() => (done.clear(), refresh())} /> : null}
      {data && isOwner && data.slots > 0 && full ? (
        <p className="small muted">All slots are in use: remove a sender to add another.</p>
      ) : null}
      {data && !isOwner && overview.data ? (
        <p className="small muted">Only workspace owners add, verify and remove senders.</p>
      ) : null}
      {data && senders.length === 0 ? (
        <div className="card sender-empty" data-testid="senders-empty">
          <p>No senders yet.</p>
          <p className="small muted">
            Add the domain your newsletters, receipts or password resets come from to watch its email authentication.
          </p>
        </div>
      ) : null}
      {done.notice}
      <ul className="sender-list">
        {senders.map((s) => (
          <SenderCard
            key={s.id}
            s={s}
            isOwner={isOwner}
            onChanged={refresh}
            onRemoved={(title) => done.say(`Removed ${title}.`)}
          />
        ))}
      </ul>
    </>
  );
}
