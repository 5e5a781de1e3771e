"use client";
// This page's own origin (https://dash.example.com) for snippets a reader copies. The server renders "" and the
// browser's first render must match it, or React throws away the page's HTML (hydration error #418, found on the
// device page): useSyncExternalStore gives the server's value while hydrating and the real origin right after.
import { useSyncExternalStore } from "react";

const noChange = () => () => {};

export function usePageOrigin(): string {
  return useSyncExternalStore(
    noChange,
    () => window.location.origin,
    () => "",
  );
}
