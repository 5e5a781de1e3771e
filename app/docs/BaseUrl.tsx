"use client";
// The API's base URL as this page was reached (its own origin + /v1), so what a reader copies works as it is.
// On the server, and when the document names an absolute URL (SERVICE_PUBLIC_URL), the document's own.
import { useSyncExternalStore } from "react";

const noChange = () => () => {};

export function BaseUrl({ fallback }: { fallback: string }) {
  const url = useSyncExternalStore(
    noChange,
    () => (fallback.startsWith("/") ? `${window.location.origin}${fallback}` : fallback),
    () => fallback,
  );
  return <code data-testid="base-url">{url}</code>;
}
