"use client";
// Named lists: create one, open it to paste or upload items, search them and see their expiry, see which rules
// use it, and delete it (with a confirmation). Same procedures as /v1/lists.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLayoutEffect, useRef, useState } from "react";
import { PLAN_SLUGS, PLANS } from "../../../server/plans/catalog";
import { ConfirmQuestion } from "../_components/ConfirmQuestion";
import { ErrorNote, ReadFailed } from "../_components/ErrorNote";
import { useTRPC } from "../_components/trpc";
import { isPlanRefusal, PlanGate } from "../_components/PlanGate";
import { listNameAsTyped } from "./list-name";
import { ListItems } from "./ListItems";
import "./lists.css";
import { BusyButton } from "../_components/BusyButton";
import { useDoneNotice } from "../_components/DoneNotice";

const FULL_PLANS = PLAN_SLUGS.filter((s) => PLANS[s].capabilities.includes("full")).map((s) => PLANS[s].name);
const LIST_PLANS = `need the ${FULL_PLANS.join(" or ")} plan`;

export const KIND_LABELS = {
  ip: "IP addresses and ranges",
  email: "Email addresses",
  email_domain: "Email domains",
  user: "User IDs",
  device: "Device IDs",
  country: "Countries",
  asn: "Networks (AS numbers)",
} as const;
type Kind = keyof typeof KIND_LABELS;

export function ListsView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const lists = useQuery(trpc.lists.list.queryOptions({ limit: 200 }));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.lists.pathKey() });
  const [name, setName] = useState("");
  const nameInput = useRef<HTMLInputElement>(null);
  /** Where the caret goes once a rewritten name is rendered (the name field's onChange). */
  const caret = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (caret.current === null) return;
    nameInput.current?.setSelectionRange(caret.current, caret.current);
    caret.current = null;
  }, [name]);
  const [kind, setKind] = useState<Kind>("email");
  const [description, setDescription] = useState("");
  const [open, setOpen] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  // A deleted list's card goes, with the button pressed in it, and a created list empties the form, whose button is
  // then disabled: either way a line says what happened and takes the focus.
  const done = useDoneNotice();
  const create = useMutation(
    trpc.lists.create.mutationOptions({
      onMutate: done.clear,
      onSuccess: (l) => {
        setName("");
        setDescription("");
        setOpen(l.id);
        refresh();
        // The emptied name disables "Create list", which drops the focus to the page's top: a line says what was
        // made and takes it, just above the new list's items.
        done.say(`Created the list “${l.name}”: add its items below.`);
      },
    }),
  );
  const remove = useMutation(
    trpc.lists.delete.mutationOptions({
      onSuccess: () => {
        setConfirming(null);
        setOpen(null);
        refresh();
      },
    }),
  );

  if (isPlanRefusal(lists.error))
    return (
      <>
        <h1>Lists</h1>
        <PlanGate feature="Lists" plans={LIST_PLANS} />
      </>
    );
  return (
    <>
      <h1>Lists</h1>
      <p className="muted small">
        Keep known-bad emails, trusted office networks or partner accounts in a list, and test them in a rule with{" "}
        <code>in_list(&quot;name&quot;, email.address)</code>. Items can expire; an expired item stops matching at once.
      </p>
      <section className="card">
        <h2>New list</h2>
        <form
          className="list-form"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate({ name: name.trim(), kind, description: description.trim() || null });
          }}
        >
          <label>
            <span>
              Name <span className="muted small">(lower-case letters, digits and _, as rules name it)</span>
            </span>
            <input
              value={name}
              ref={nameInput}
              onChange={(e) => {
                // The caret stays where the person typed: a rewritten value would otherwise put it at the end.
                const input = e.target;
                const next = listNameAsTyped(input.value);
                const fromEnd = input.value.length - (input.selectionStart ?? input.value.length);
                caret.current = next !== input.value ? Math.max(0, next.length - fromEnd) : null;
                setName(next);
              }}
              placeholder="blocked_emails"
              pattern="[a-z0-9_]{1,64}"
              title="Lower-case letters, digits and _"
              required
              data-testid="list-name"
            />
          </label>
          <label>
            Holds
            <select value={kind} onChange={(e) => setKind(e.target.value as Kind)} data-testid="list-kind">
              {Object.entries(KIND_LABELS).map(([k, label]) => (
                <option key={k} value={k}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <label>
            Description (optional)
            <input value={description} onChange={(e) => setDescription(e.target.value)} maxLength={500} />
          </label>
          <BusyButton
            type="submit"
            className="btn btn-primary"
            disabled={name.trim() === ""}
            busy={create.isPending}
            busyLabel="Creating…"
          >
            Create list
          </BusyButton>
        </form>
        <ErrorNote error={create.error} />
      </section>
      <section className="card">
        <h2>Your lists</h2>
        <ReadFailed what="The lists" query={lists} />
        {done.notice}
        {lists.isPending ? (
          <p className="muted" role="status">
            Loading lists…
          </p>
        ) : null}
        {lists.data && lists.data.items.length === 0 ? (
          <p className="muted" data-testid="lists-empty">
            No lists yet. Create one above, then add items by pasting them or uploading a CSV file.
          </p>
        ) : null}
        <ul className="list-cards">
          {lists.data?.items.map((l) => (
            <li key={l.id} className="list-card" data-testid="list-card">
              <div className="list-card-head">
                <div>
                  <strong className="break">{l.name}</strong>
                  <div className="muted small">
                    {KIND_LABELS[l.kind]} · {l.item_count.toLocaleString("en")} {l.item_count === 1 ? "item" : "items"}
                  </div>
                  {l.description ? <div className="small break">{l.description}</div> : null}
                  <div className="small" data-testid="list-used-by">
                    {l.used_by.length === 0
                      ? "Not used by any rule yet."
                      : `Used by ${l.used_by.map((r) => `“${r.name}”`).join(", ")}`}
                  </div>
                </div>
                <div className="row">
                  <button
                    type="button"
                    className="btn"
                    onClick={() => setOpen(open === l.id ? null : l.id)}
                    aria-expanded={open === l.id}
                  >
                    {open === l.id ? "Close" : "Open"}
                  </button>
                  <button
                    type="button"
                    className="btn btn-danger"
                    onClick={() => setConfirming(l.id)}
                    data-confirm-trigger
                  >
                    Delete
                  </button>
                </div>
              </div>
              {confirming === l.id ? (
                <ConfirmQuestion
                  className="notice"
                  block
                  label={`Delete ${l.name}`}
                  question={
                    l.used_by.length > 0 ? (
                      <p>
                        This list is used by {l.used_by.map((r) => `“${r.name}”`).join(", ")}. Change or delete those
                        rules first.
                      </p>
                    ) : (
                      <p>
                        Delete “{l.name}” and its {l.item_count.toLocaleString("en")} items? This cannot be undone.
                      </p>
                    )
                  }
                  onCancel={() => setConfirming(null)}
                  footer={<ErrorNote error={remove.error} />}
                >
                  {l.used_by.length === 0 ? (
                    <BusyButton
                      type="button"
                      className="btn btn-danger"
                      busy={remove.isPending}
                      onClick={() =>
                        remove.mutate({ id: l.id }, { onSuccess: () => done.say(`Deleted the list “${l.name}”.`) })
                      }
                      data-testid="confirm-delete"
                    >
                      Delete list
                    </BusyButton>
                  ) : null}
                </ConfirmQuestion>
              ) : null}
              {open === l.id ? <ListItems id={l.id} kind={l.kind} onChange={refresh} /> : null}
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
