"use client";
// The workspace's protected links (GET /v1/go/links and POST /v1/go/links/{id}/disable through the dashboard's tRPC endpoint):
// where each goes, what the blocklists said, how often it was followed, and disabling one with an in-page
// confirmation. New links are made with the same procedure as POST /v1/go/links.
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRef, useState } from "react";
import { ConfirmQuestion } from "../_components/ConfirmQuestion";
import { CopyButton } from "../_components/CopyButton";
import { ErrorNote, ReadFailed, retryRead } from "../_components/ErrorNote";
import { useRefusalAtField } from "../_components/field-problem";
import { inFormWords } from "../_components/field-words";
import { formatUtc } from "../_components/format";
import { useTRPC } from "../_components/trpc";
import "./links.css";
import { BusyButton } from "../_components/BusyButton";
import { useFocusNewRows } from "../_components/useFocusNewRows";

type Safety = {
  status: "not_listed" | "listed" | "incomplete" | "skipped";
  listed_on: string[];
  sources: string[];
  checked_at: string | null;
} | null;

const EXPIRY = [
  { value: "", label: "Never" },
  { value: "1", label: "In 1 day" },
  { value: "7", label: "In 7 days" },
  { value: "30", label: "In 30 days" },
] as const;

const STATUS_LABEL = { active: "Active", expired: "Expired", disabled: "Disabled" } as const;

/** The destination's blocklist verdict, coloured by what it means for the people who click. */
function SafetyFlag({ safety }: { safety: Safety }) {
  if (!safety) return <span className="flag flag-neutral">No verdict kept</span>;
  const checked = safety.checked_at
    ? `Checked ${formatUtc(safety.checked_at)} against ${safety.sources.length} blocklist${safety.sources.length === 1 ? "" : "s"}`
    : undefined;
  switch (safety.status) {
    case "not_listed":
      return (
        <span className="flag flag-good" title={checked}>
          Not on blocklists
        </span>
      );
    case "listed":
      return (
        <span className="flag flag-bad" title={checked}>
          On a blocklist: {safety.listed_on.join(", ")}
        </span>
      );
    case "incomplete":
      return (
        <span className="flag flag-neutral" title={checked}>
          Blocklist check incomplete
        </span>
      );
    default:
      return <span className="flag flag-neutral">Not checked against blocklists</span>;
  }
}

/** The form's fields as it labels them: "url: must be an absolute http:// …" is said of the Destination. */
const LINK_LABELS: Record<string, string> = { url: "Destination", expires_at: "Expires" };

function NewLinkForm({ onCreated }: { onCreated: () => void }) {
  const trpc = useTRPC();
  const [url, setUrl] = useState("");
  const [expiry, setExpiry] = useState("");
  const create = useMutation(trpc.links.create.mutationOptions({ onSuccess: onCreated }));
  const refusal = useRefusalAtField(create.error, { labels: LINK_LABELS, main: "url" });
  return (
    <section className="card">
      <h2>New link</h2>
      <form
        className="form-row"
        onSubmit={(e) => {
          e.preventDefault();
          const expires_at = expiry ? new Date(Date.now() + Number(expiry) * 86_400_000).toISOString() : undefined;
          create.mutate({ url: url.trim(), expires_at });
        }}
      >
        <label className="grow">
          Destination
          <input
            name="url"
            type="url"
            required
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            maxLength={2048}
            placeholder="https://example.com/offer"
            {...refusal.fieldProps("url")}
          />
        </label>
        <label>
          Expires
          <select
            name="expiry"
            value={expiry}
            onChange={(e) => setExpiry(e.target.value)}
            {...refusal.fieldProps("expires_at")}
          >
            {EXPIRY.map((x) => (
              <option key={x.value} value={x.value}>
                {x.label}
              </option>
            ))}
          </select>
        </label>
        <BusyButton type="submit" className="btn btn-primary" busy={create.isPending} busyLabel="Checking…">
          Create link
        </BusyButton>
      </form>
      <ErrorNote error={create.error} words={(m) => inFormWords(m, LINK_LABELS)} id={refusal.noteId} />
      {create.data ? (
        <div className="notice link-created row" role="status" data-testid="link-created">
          <span className="grow">
            {create.data.reused ? "This destination already has a link; here it is: " : "Link ready: "}
            <a href={create.data.short_url} target="_blank" rel="noreferrer" className="break">
              <code>{create.data.short_url}</code>
            </a>
          </span>
          <CopyButton text={create.data.short_url} label="Copy link" />
        </div>
      ) : null}
    </section>
  );
}

export function LinksView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState<string | null>(null);
  const links = useInfiniteQuery(
    trpc.links.list.infiniteQueryOptions({ limit: 25 }, { getNextPageParam: (p) => p.nextCursor ?? undefined }),
  );
  // pathKey covers the infinite list whatever its input, so a change always refreshes what is on screen.
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.links.list.pathKey() });
  // Disabling a link takes its Disable button (and the question) away, and turning it back on its "Turn back on":
  // the focus goes to the button that undoes what was just done, once the refreshed row shows it.
  const focusNext = useRef<string | null>(null);
  const takeFocus = (key: string) => (el: HTMLButtonElement | null) => {
    if (el && focusNext.current === key) {
      focusNext.current = null;
      el.focus();
    }
  };
  const disable = useMutation(
    trpc.links.disable.mutationOptions({
      onSuccess: (_r, { id }) => {
        focusNext.current = `enable:${id}`;
        setConfirming(null);
        void refresh();
      },
    }),
  );
  // Undoing a disable needs no question: it only gives visitors the redirect back.
  const enable = useMutation(
    trpc.links.enable.mutationOptions({
      onSuccess: (_r, { id }) => {
        focusNext.current = `disable:${id}`;
        void refresh();
      },
    }),
  );
  const items = links.data?.pages.flatMap((p) => p.items) ?? [];
  const more = useFocusNewRows<HTMLUListElement>(items.length);

  return (
    <>
      <h1>Protected links</h1>
      <p className="muted small">
        Short links that send visitors on to a destination checked against the domain blocklists. Links made with one of
        this workspace&apos;s API keys (<code>POST /v1/go/links</code>) or here are listed; a disabled or expired link
        answers “gone” (410), and each refused visit is recorded in <Link href="/dashboard/events">Events</Link>.
      </p>
      <NewLinkForm onCreated={() => void refresh()} />
      <section className="card" aria-busy={links.isFetching}>
        <h2>Links</h2>
        <ReadFailed
          what={links.isFetchNextPageError ? "The next links" : "The links"}
          error={links.error}
          onRetry={retryRead(links)}
          retrying={links.isFetching}
        />
        <ErrorNote error={disable.error ?? enable.error} />
        {links.isPending ? (
          <p className="muted" role="status">
            Loading links…
          </p>
        ) : null}
        {links.data && items.length === 0 ? (
          <p className="muted" data-testid="links-empty">
            No links yet. Create one above, or with <code>POST /v1/go/links</code> and an API key of this workspace.
          </p>
        ) : null}
        {items.length > 0 ? (
          <ul className="link-list" data-testid="links-list" ref={more.list}>
            {items.map((l) => (
              <li key={l.id} data-testid="link-row" data-slug={l.slug} data-status={l.status}>
                <div className="link-head">
                  <a href={l.short_url} target="_blank" rel="noreferrer" className="break" data-testid="link-short-url">
                    <code>{l.short_url}</code>
                  </a>
                  <span className={`badge badge-${l.status}`} data-testid="link-status">
                    {STATUS_LABEL[l.status]}
                  </span>
                  <SafetyFlag safety={l.safety} />
                </div>
                <div className="link-actions">
                  {l.status === "active" ? <CopyButton text={l.short_url} label="Copy" /> : null}
                  {l.status !== "disabled" && confirming !== l.id ? (
                    <button
                      type="button"
                      className="btn btn-danger"
                      onClick={() => setConfirming(l.id)}
                      ref={takeFocus(`disable:${l.id}`)}
                      aria-label={`Disable ${l.short_url}`}
                      data-confirm-trigger
                    >
                      Disable
                    </button>
                  ) : null}
                  {l.status === "disabled" ? (
                    <BusyButton
                      type="button"
                      className="btn"
                      busy={enable.isPending}
                      onClick={() => enable.mutate({ id: l.id })}
                      ref={takeFocus(`enable:${l.id}`)}
                      aria-label={`Turn ${l.short_url} back on`}
                    >
                      {enable.isPending && enable.variables?.id === l.id ? "Turning on…" : "Turn back on"}
                    </BusyButton>
                  ) : null}
                </div>
                <p className="link-dest">
                  <span className="muted">To </span>
                  <span className="break">{l.url}</span>
                </p>
                <p className="link-facts">
                  <span>
                    Clicks <strong data-testid="link-clicks">{l.clicks}</strong>
                  </span>
                  <span>Created {formatUtc(l.created_at)}</span>
                  <span>
                    {l.expires_at
                      ? `${l.status === "expired" ? "Expired" : "Expires"} ${formatUtc(l.expires_at)}`
                      : "Never expires"}
                  </span>
                  {l.disabled_at ? <span>Disabled {formatUtc(l.disabled_at)}</span> : null}
                </p>
                {confirming === l.id ? (
                  <ConfirmQuestion
                    label={`Disable ${l.short_url}`}
                    testId="link-confirm"
                    question={
                      <span>Disable this link? Visitors will be told it is gone until you turn it back on.</span>
                    }
                    onCancel={() => setConfirming(null)}
                  >
                    <BusyButton
                      type="button"
                      className="btn btn-danger"
                      busy={disable.isPending}
                      busyLabel="Disabling…"
                      onClick={() => disable.mutate({ id: l.id })}
                    >
                      Yes, disable
                    </BusyButton>
                  </ConfirmQuestion>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
        {links.hasNextPage ? (
          <BusyButton
            type="button"
            className="btn"
            onClick={() => more.loadMore(() => links.fetchNextPage())}
            busy={links.isFetchingNextPage}
            busyLabel="Loading…"
          >
            Load more
          </BusyButton>
        ) : null}
      </section>
    </>
  );
}
