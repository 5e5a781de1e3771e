"use client";
// "Load more" (or "Older assessments") by keyboard: once the next page is in, the focus goes to the first row it
// added, not to the page's top, where it fell when the button went away with the last page (a button that stays
// would keep it, but the new rows are what the person asked to see). `list` goes on the element that holds the rows
// (a <ul> or a <tbody>); its children are the rows, or those `rowSelector` matches (a row with a detail row below).
import { useEffect, useRef, useState, type RefObject } from "react";

export function useFocusNewRows<T extends HTMLElement>(
  count: number,
  rowSelector = ":scope > *",
): {
  list: RefObject<T | null>;
  /** Runs the page's fetch, then focuses the first row it added. */
  loadMore: (fetch: () => Promise<unknown>) => void;
} {
  const list = useRef<T>(null);
  const [focusAt, setFocusAt] = useState<number | null>(null);
  useEffect(() => {
    if (focusAt === null || count <= focusAt) return;
    setFocusAt(null);
    const row = list.current?.querySelectorAll<HTMLElement>(rowSelector)[focusAt];
    if (!row) return;
    // A row made focusable itself (tabIndex -1) takes it; else its first link or button; else the row, made focusable.
    const own = row.matches("a[href], button, [tabindex]");
    const target = own ? row : (row.querySelector<HTMLElement>("a[href], button") ?? row);
    if (target === row && !own) row.tabIndex = -1;
    target.focus();
  }, [focusAt, count, rowSelector]);
  return {
    list,
    loadMore: (fetch) => {
      const shown = count;
      void fetch().then(() => setFocusAt(shown));
    },
  };
}
