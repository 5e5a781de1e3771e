"use client";
// Rename and Delete of one saved report, inline in its row or card: rename edits the title in place, delete asks
// once before it removes the report. The server allows owners and the report's author; others see its refusal.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { ConfirmQuestion } from "../_components/ConfirmQuestion";
import { ErrorNote } from "../_components/ErrorNote";
import { useTRPC } from "../_components/trpc";
import { BusyButton } from "../_components/BusyButton";

export function ReportRowActions({ id, title, onDeleted }: { id: string; title: string; onDeleted: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<"idle" | "rename" | "delete">("idle");
  const [draft, setDraft] = useState(title);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.reports.list.pathKey() });
  // The rename form goes when it is saved or cancelled, with the button pressed in it: the focus goes back to Rename.
  const backToRename = useRef(false);
  const renameButton = (el: HTMLButtonElement | null) => {
    if (el && backToRename.current) {
      backToRename.current = false;
      el.focus();
    }
  };
  const closeRename = () => {
    backToRename.current = true;
    setMode("idle");
  };
  const rename = useMutation(
    trpc.reports.rename.mutationOptions({
      onSuccess: () => {
        closeRename();
        refresh();
      },
    }),
  );
  const remove = useMutation(
    trpc.reports.delete.mutationOptions({
      onSuccess: () => {
        onDeleted();
        refresh();
      },
    }),
  );
  const reset = () => {
    rename.reset();
    remove.reset();
  };

  if (mode === "rename")
    return (
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          rename.mutate({ id, title: draft });
        }}
      >
        <input
          aria-label={`New title for ${title}`}
          value={draft}
          maxLength={200}
          required
          autoFocus
          onChange={(e) => setDraft(e.target.value)}
        />
        <BusyButton type="submit" className="btn btn-primary" disabled={!draft.trim()} busy={rename.isPending}>
          Save title
        </BusyButton>
        <button
          type="button"
          className="btn"
          onClick={() => {
            reset();
            closeRename();
          }}
        >
          Cancel
        </button>
        <ErrorNote error={rename.error} />
      </form>
    );
  if (mode === "delete")
    return (
      <ConfirmQuestion
        label={`Delete ${title}`}
        question={<span className="small">Delete this report?</span>}
        onCancel={() => {
          reset();
          setMode("idle");
        }}
        footer={<ErrorNote error={remove.error} />}
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
    );
  return (
    <>
      <button
        type="button"
        className="btn"
        onClick={() => {
          reset();
          setDraft(title);
          setMode("rename");
        }}
        ref={renameButton}
      >
        Rename
      </button>
      <button
        type="button"
        className="btn btn-danger"
        onClick={() => {
          reset();
          setMode("delete");
        }}
        data-confirm-trigger
      >
        Delete
      </button>
    </>
  );
}
