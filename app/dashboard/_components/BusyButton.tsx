"use client";
// A button whose action takes a while. While `busy` it must not act again, but it must not be disabled either: a
// disabled button drops the keyboard's focus to the page's top (the browser moves it to the body), so a keyboard
// user who pressed it is lost once the action ends. This one stays focusable, says it is busy (aria-disabled and
// aria-busy; dashboard.css makes it look disabled) and ignores its clicks. A cancelled click on a submit button
// also stops its form's submit, Enter in a field included (the browser submits through a click on the button).
// `disabled` stays for what is no business of being busy (an empty form, a plan that does not allow the action).
import { useRef, type ComponentProps, type MouseEvent, type ReactNode } from "react";

type Props = ComponentProps<"button"> & {
  /** The action runs: activations are ignored until it ends. */
  busy: boolean;
  /** Said in place of the children while busy (e.g. "Saving…"); the label stays as it is without it. */
  busyLabel?: ReactNode;
  type: "button" | "submit";
};

export function BusyButton({ busy, busyLabel, onClick, children, ...button }: Props) {
  // A second activation that comes before the page has drawn the busy state (two quick presses: a mutation says it
  // is pending on a later task) is ignored too; the hold ends after that task, so a refused click (nothing started)
  // leaves the button usable at once.
  const held = useRef(false);
  function activate(e: MouseEvent<HTMLButtonElement>) {
    if (busy || held.current) {
      e.preventDefault();
      return;
    }
    held.current = true;
    setTimeout(() => setTimeout(() => (held.current = false)));
    onClick?.(e);
  }
  return (
    <button {...button} aria-disabled={busy || undefined} aria-busy={busy || undefined} onClick={activate}>
      {busy && busyLabel !== undefined ? busyLabel : children}
    </button>
  );
}
