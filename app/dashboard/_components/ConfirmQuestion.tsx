"use client";
// The question asked in the page before something that cannot be undone (remove a member, revoke a key, delete a
// list or a monitor). It takes focus on its safe answer, Cancel, so a second Enter or Space on the button that opened
// it cancels instead of confirming (the opening button is often replaced in place by the confirming one); Escape
// cancels too. Cancelling gives focus back to the button that asked (the one marked data-confirm-trigger beside it).
import { useRef, type ReactNode } from "react";

export function ConfirmQuestion({
  label,
  question,
  children,
  onCancel,
  cancelLabel = "Cancel",
  className = "confirm",
  footer,
  block = false,
  testId,
}: {
  /** The dialog's name, e.g. "Revoke ci-key". */
  label: string;
  question: ReactNode;
  /** The confirming button(s); Cancel comes after them. */
  children?: ReactNode;
  onCancel: () => void;
  /** The safe answer's words where "Cancel" would be ambiguous ("Keep it running" beside "Yes, cancel the job"). */
  cancelLabel?: string;
  className?: string;
  /** Shown under the buttons (the action's error). */
  footer?: ReactNode;
  /** The question as a paragraph with the answers in a row under it (inside a card), rather than on one line. */
  block?: boolean;
  testId?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const cancel = () => {
    const host = ref.current?.parentElement;
    onCancel();
    requestAnimationFrame(() => host?.querySelector<HTMLElement>("[data-confirm-trigger]")?.focus());
  };
  const answers = (
    <>
      {children}
      <button type="button" className="btn" onClick={cancel} autoFocus>
        {cancelLabel}
      </button>
    </>
  );
  return (
    <div
      ref={ref}
      className={className}
      role="alertdialog"
      aria-label={label}
      data-testid={testId}
      onKeyDown={(e) => {
        if (e.key !== "Escape") return;
        e.stopPropagation();
        cancel();
      }}
    >
      {question}
      {block ? <div className="row">{answers}</div> : answers}
      {footer}
    </div>
  );
}
