"use client";
// One list's items: paste values (one per line, or CSV lines value,expires_at,note) or upload a CSV file, search,
// see each item's expiry, remove one after a confirmation. Bad input is refused whole, with the line named. One
// message says what the last action did; the next action or edit replaces or clears it, so none goes stale.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { ConfirmQuestion } from "../_components/ConfirmQuestion";
import { ErrorNote, ReadFailed } from "../_components/ErrorNote";
import { formatUtc } from "../_components/format";
import { useTRPC } from "../_components/trpc";
import { BusyButton } from "../_components/BusyButton";
import { usePagerFocus } from "../_components/usePagerFocus";

const EXAMPLES: Record<string, string> = {
  ip: "203.0.113.7\n198.51.100.0/24,2027-01-31T00:00:00Z,partner office",
  email: "fraud@example.com\nchargeback@example.net,,card dispute",
  email_domain: "mailinator.com",
  user: "user_8412",
  device: "dev_4f1a",
  country: "KP",
  asn: "AS64496",
};

/**
 * A note in words. Resolutions of the review queue once wrote "case case_01…: fraud" (a case id nobody knows); they
 * now write "From case review of <account>: fraud", and the old ones read as a case review without its id.
 */
export function noteText(note: string): string {
  const old = /^case case_[0-9A-Za-z]+: (\w+)$/.exec(note);
  return old ? `From case review: ${old[1]}` : note;
}

const count = (n: number) => n.toLocaleString("en");

export function ListItems({ id, kind, onChange }: { id: string; kind: string; onChange: () => void }) {
  const trpc = useTRPC();
  const [query, setQuery] = useState("");
  const [text, setText] = useState("");
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  // A removed item's row goes, with the button pressed in it, and added items empty the box, whose button is then
  // disabled: either way the focus goes to the message that says what happened.
  const messageLine = useRef<HTMLParagraphElement>(null);
  // The page shown stays until the next one comes, so the pager's buttons stay where they are (and keep the focus).
  const queryClient = useQueryClient();
  const itemsQuery = trpc.lists.items.queryOptions({ id, limit: 50, query: query || undefined, cursor });
  const items = useQuery({ ...itemsQuery, placeholderData: keepPreviousData });
  /**
   * Reads the page again after a change. A read still under way is cancelled first: a refetch alone would join it
   * when the page has no data yet (the list's first read, sent as the card opened), and that read may have been
   * answered before the change, showing "This list is empty" under "2 added".
   */
  const reread = () => void queryClient.cancelQueries({ queryKey: itemsQuery.queryKey }).then(() => items.refetch());
  const nextCursor = items.data?.next_cursor ?? undefined;
  const pager = usePagerFocus(!cursor, !nextCursor, items.isPlaceholderData);
  const add = useMutation(
    trpc.lists.addItems.mutationOptions({
      onMutate: () => setMessage(null),
      onSuccess: (r) => {
        setText("");
        setMessage(`${count(r.added)} added, ${count(r.updated)} updated.`);
        // The emptied box disables "Add items" (the focus would fall to the page's top): the line saying what was
        // added takes it, as after a removal.
        messageLine.current?.focus();
        reread();
        onChange();
      },
    }),
  );
  const remove = useMutation(
    trpc.lists.deleteItem.mutationOptions({
      onMutate: () => setMessage(null),
      onSuccess: (_r, input) => {
        const value = items.data?.items.find((i) => i.id === input.item)?.value;
        setConfirming(null);
        setMessage(value ? `Removed ${value}.` : "Removed.");
        messageLine.current?.focus();
        reread();
        onChange();
      },
    }),
  );
  /** Anything new the user starts makes the last action's message and refusal stale. */
  const clearMessages = () => {
    setMessage(null);
    add.reset();
    remove.reset();
  };

  return (
    <div className="list-items">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) add.mutate({ id, csv: text });
        }}
      >
        <label>
          Add items: one per line, optionally <code>value,expires_at,note</code>
          <textarea
            rows={4}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              if (message || add.error) clearMessages();
            }}
            placeholder={EXAMPLES[kind]}
            data-testid="items-text"
          />
        </label>
        <div className="row">
          <BusyButton
            type="submit"
            className="btn btn-primary"
            disabled={text.trim() === ""}
            busy={add.isPending}
            busyLabel="Adding…"
          >
            Add items
          </BusyButton>
          <label className="file-label">
            Upload CSV
            <input
              type="file"
              accept=".csv,.txt,text/csv,text/plain"
              onChange={async (e) => {
                const file = e.target.files?.[0];
                if (file) add.mutate({ id, csv: await file.text() });
                e.target.value = "";
              }}
            />
          </label>
        </div>
        <ErrorNote error={add.error} />
      </form>
      <p className="small list-message" role="status" data-testid="items-message" ref={messageLine} tabIndex={-1}>
        {message}
      </p>
      <label>
        Search
        <input
          type="search"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setCursor(undefined);
            setConfirming(null);
            clearMessages();
          }}
          placeholder="Value or note"
          data-testid="items-search"
        />
      </label>
      <ReadFailed what="The list's items" query={items} />
      <ErrorNote error={remove.error} />
      {items.isPending ? (
        <p className="muted" role="status">
          Loading items…
        </p>
      ) : null}
      {items.data && items.data.items.length === 0 ? (
        <p className="muted">{query ? "No item matches this search." : "This list is empty. Add items above."}</p>
      ) : null}
      <ul className="item-cards">
        {items.data?.items.map((i) => (
          <li key={i.id} className={i.expired ? "item-card expired" : "item-card"} data-testid="item-row">
            <div>
              <code className="break">{i.value}</code>
              {i.note ? <div className="small break">{noteText(i.note)}</div> : null}
              <div className="muted small">
                {i.expires_at ? `${i.expired ? "Expired" : "Expires"} ${formatUtc(i.expires_at)}` : "Never expires"}
              </div>
            </div>
            {confirming === i.id ? (
              <ConfirmQuestion
                className="item-confirm"
                label={`Remove ${i.value}`}
                question={<span className="small">Remove it? Rules stop matching it at once.</span>}
                onCancel={() => setConfirming(null)}
              >
                <BusyButton
                  type="button"
                  className="btn btn-danger"
                  onClick={() => remove.mutate({ id, item: i.id })}
                  busy={remove.isPending}
                  busyLabel="Removing…"
                  data-testid="confirm-remove"
                >
                  Yes, remove
                </BusyButton>
              </ConfirmQuestion>
            ) : (
              <button
                type="button"
                className="btn btn-danger"
                onClick={() => {
                  clearMessages();
                  setConfirming(i.id);
                }}
                aria-label={`Remove ${i.value}`}
                data-confirm-trigger
              >
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      {cursor || nextCursor ? (
        <div className="row">
          <BusyButton
            type="button"
            className="btn"
            ref={pager.previous}
            disabled={!cursor}
            busy={items.isPlaceholderData}
            onClick={() => {
              pager.press("previous");
              setCursor(undefined);
            }}
          >
            First page
          </BusyButton>
          <BusyButton
            type="button"
            className="btn"
            ref={pager.next}
            disabled={!nextCursor}
            busy={items.isPlaceholderData}
            onClick={() => {
              pager.press("next");
              setCursor(nextCursor);
            }}
          >
            Next page
          </BusyButton>
        </div>
      ) : null}
    </div>
  );
}
