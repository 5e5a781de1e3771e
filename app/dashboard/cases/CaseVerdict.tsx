"use client";
// A case's verdict: fraud or legitimate, with an optional note, and optionally one of the case's values (its account,
// email, device or address) added to a list of the matching kind. The state lives in useVerdict so the case's F and
// L keys (CaseDetail) give the same verdict as the buttons.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { ErrorNote, ReadFailed } from "../_components/ErrorNote";
import { useTRPC } from "../_components/trpc";
import { BusyButton } from "../_components/BusyButton";

export type Resolution = "fraud" | "legitimate";
type ValueSource = "user" | "email" | "device" | "ip";

/** Which list kinds take which value of a case. */
const KINDS_FOR: Record<ValueSource, string[]> = {
  user: ["user"],
  email: ["email", "email_domain"],
  device: ["device"],
  ip: ["ip"],
};
const SOURCE_LABEL: Record<ValueSource, string> = {
  user: "user id",
  email: "email",
  device: "device",
  ip: "IP address",
};
const short = (v: string) => (v.length > 32 ? `${v.slice(0, 31)}…` : v);

type CaseValues = { user_id: string | null; email: string | null; device_id: string | null; ip: string | null };

export function useVerdict(
  id: string,
  c: CaseValues | undefined,
  /** `added`: what went into a list with the verdict, in words ("its IP address 10.0.0.8 to the list bad_ips"). */
  onResolved: (resolved: { resolution: Resolution; added: string | null }) => void,
) {
  const trpc = useTRPC();
  const lists = useQuery(trpc.lists.list.queryOptions({ limit: 200 }));
  const [note, setNote] = useState("");
  const [listId, setListId] = useState("");
  const [source, setSource] = useState<ValueSource>("user");
  // Only the values this case has can go into a list; the first of them until another is chosen.
  const values: Record<ValueSource, string | null> = {
    user: c?.user_id ?? null,
    email: c?.email ?? null,
    device: c?.device_id ?? null,
    ip: c?.ip ?? null,
  };
  const sources = (Object.keys(SOURCE_LABEL) as ValueSource[]).filter((s) => values[s]);
  const chosen: ValueSource = sources.includes(source) ? source : (sources[0] ?? source);
  const resolve = useMutation(
    trpc.cases.resolve.mutationOptions({
      onSuccess: (r, input) =>
        onResolved({
          resolution: r.resolution ?? input.resolution,
          added: input.add_to_list
            ? `its ${SOURCE_LABEL[input.add_to_list.value]} ${short(values[input.add_to_list.value] ?? "")} to the list ${
                lists.data?.items.find((l) => l.id === input.add_to_list?.list_id)?.name ?? "chosen"
              }`
            : null,
        }),
    }),
  );
  const verdict = (resolution: Resolution) =>
    resolve.mutate({
      id,
      resolution,
      ...(note.trim() ? { note: note.trim() } : {}),
      ...(listId && values[chosen] ? { add_to_list: { list_id: listId, value: chosen } } : {}),
    });
  const listChoices = (lists.data?.items ?? []).filter((l) => KINDS_FOR[chosen].includes(l.kind));
  return {
    verdict,
    resolve,
    form: {
      note,
      setNote,
      listId,
      setListId,
      setSource,
      sources,
      chosen,
      values,
      listChoices,
      // The lists could not be read: an empty choice would say the workspace has none.
      listsError: lists.error,
      retryLists: () => void lists.refetch(),
    },
  };
}

export function CaseVerdictForm({ v }: { v: ReturnType<typeof useVerdict> }) {
  const { verdict, resolve, form } = v;
  const heading = useId();
  return (
    <form className="case-resolve" onSubmit={(e) => e.preventDefault()} aria-labelledby={heading}>
      <h3 id={heading}>Your verdict</h3>
      <label>
        Note (optional)
        <textarea value={form.note} onChange={(e) => form.setNote(e.target.value)} rows={2} maxLength={2000} />
      </label>
      {form.sources.length ? (
        <div className="row">
          <label>
            Also add its
            <select
              value={form.chosen}
              onChange={(e) => {
                form.setSource(e.target.value as ValueSource);
                form.setListId(""); // a list of the old value's kind would no longer be shown
              }}
            >
              {form.sources.map((s) => (
                <option key={s} value={s}>
                  {SOURCE_LABEL[s]} ({short(form.values[s]!)})
                </option>
              ))}
            </select>
          </label>
          <label>
            to the list
            <select value={form.listId} onChange={(e) => form.setListId(e.target.value)} data-testid="case-list">
              <option value="">(no list)</option>
              {form.listChoices.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </select>
          </label>
        </div>
      ) : null}
      {form.sources.length ? (
        <ReadFailed
          what="The workspace's lists"
          error={form.listsError}
          onRetry={form.retryLists}
          className="error small"
          testId="case-lists-error"
        />
      ) : null}
      <div className="row">
        <BusyButton
          type="button"
          className="btn btn-danger"
          busy={resolve.isPending}
          onClick={() => verdict("fraud")}
          data-testid="case-fraud"
        >
          Fraud <kbd>F</kbd>
        </BusyButton>
        <BusyButton
          type="button"
          className="btn"
          busy={resolve.isPending}
          onClick={() => verdict("legitimate")}
          data-testid="case-legitimate"
        >
          Legitimate <kbd>L</kbd>
        </BusyButton>
      </div>
      <ErrorNote error={resolve.error} />
      <p className="muted small">
        Keys, while the case has focus (it takes it when it opens; not on a button, link or field): <kbd>F</kbd> fraud,{" "}
        <kbd>L</kbd> legitimate, <kbd>J</kbd>/<kbd>K</kbd> next and previous case.
      </p>
    </form>
  );
}
