"use client";
// One list's items: paste values (one per line, or CSV lines value,expires_at,note) or upload a CSV file, search,
// see each item's expiry, remove one. Bad input is refused whole, with the line named.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorNote } from "../_components/ErrorNote";
import { formatUtc } from "../_components/format";
import { useTRPC } from "../_components/trpc";

const EXAMPLES: Record<string, string> = {
  ip: "203.0.113.7\n198.51.100.0/24,2027-01-31T00:00:00Z,partner office",
  email: "fraud@example.com\nchargeback@example.net,,card dispute",
  email_domain: "mailinator.com",
  user: "user_8412",
  device: "dev_4f1a",
  country: "KP",
  asn: "AS64496",
};

export function ListItems({ id, kind, onChange }: { id: string; kind: string; onChange: () => void }) {
  const trpc = useTRPC();
  const [query, setQuery] = useState("");
  const [text, setText] = useState("");
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const items = useQuery(trpc.lists.items.queryOptions({ id, limit: 50, query: query || undefined, cursor }));
  const add = useMutation(
    trpc.lists.addItems.mutationOptions({
      onSuccess: () => {
        setText("");
        void items.refetch();
        onChange();
      },
    }),
  );
  const remove = useMutation(
    trpc.lists.deleteItem.mutationOptions({
      onSuccess: () => {
        void items.refetch();
        onChange();
      },
    }),
  );

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
            onChange={(e) => setText(e.target.value)}
            placeholder={EXAMPLES[kind]}
            data-testid="items-text"
          />
        </label>
        <div className="row">
          <button type="submit" disabled={add.isPending || text.trim() === ""}>
            {add.isPending ? "Adding…" : "Add items"}
          </button>
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
        {add.data ? (
          <p className="small" role="status">
            {add.data.added.toLocaleString("en")} added, {add.data.updated.toLocaleString("en")} updated.
          </p>
        ) : null}
      </form>
      <label>
        Search
        <input
          type="search"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setCursor(undefined);
          }}
          placeholder="Value or note"
          data-testid="items-search"
        />
      </label>
      <ErrorNote error={items.error ?? remove.error} />
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
              {i.note ? <div className="small break">{i.note}</div> : null}
              <div className="muted small">
                {i.expires_at ? `${i.expired ? "Expired" : "Expires"} ${formatUtc(i.expires_at)}` : "Never expires"}
              </div>
            </div>
            <button
              type="button"
              onClick={() => remove.mutate({ id, item: i.id })}
              disabled={remove.isPending}
              aria-label={`Remove ${i.value}`}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <div className="row">
        {cursor ? (
          <button type="button" onClick={() => setCursor(undefined)}>
            First page
          </button>
        ) : null}
        {items.data?.next_cursor ? (
          <button type="button" onClick={() => setCursor(items.data.next_cursor ?? undefined)}>
            Next page
          </button>
        ) : null}
      </div>
    </div>
  );
}
