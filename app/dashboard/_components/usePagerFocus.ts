"use client";
// Previous and next page buttons are disabled on the first and last page, and a disabled button drops the keyboard's
// focus to the page's top: the one pressed to reach that page would lose it. The focus goes to the other button
// instead (from the last page, back is the one way left), and only when it was lost, never taken from elsewhere.
// A pager whose next page comes after a request (the one shown stays until then) passes `turning` while it waits:
// where the press led is known once it ends.
import { useEffect, useRef } from "react";

export function usePagerFocus(atFirst: boolean, atLast: boolean, turning = false) {
  const previous = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  const pressed = useRef<"previous" | "next" | null>(null);
  useEffect(() => {
    if (turning) return;
    const which = pressed.current;
    pressed.current = null;
    if (!which || (which === "next" ? !atLast : !atFirst)) return;
    const left = which === "next" ? next.current : previous.current;
    const lost = !document.activeElement || document.activeElement === document.body || document.activeElement === left;
    if (lost) (which === "next" ? previous : next).current?.focus();
  }, [atFirst, atLast, turning]);
  return {
    previous,
    next,
    /** Call with the button pressed, before moving to its page. */
    press: (which: "previous" | "next") => (pressed.current = which),
  };
}
