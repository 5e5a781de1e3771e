"use client";
// The API key pasted into a "try it" panel, shared by every panel of the page and held in memory only: never in
// storage, a cookie or the URL, and gone when the tab closes.
import { useSyncExternalStore } from "react";

let key = "";
const listeners = new Set<() => void>();

export function setPastedKey(value: string): void {
  key = value;
  for (const l of listeners) l();
}

export function usePastedKey(): string {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => key,
    () => "",
  );
}
