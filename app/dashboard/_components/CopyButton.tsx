"use client";
import { useState } from "react";

export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      // Clipboard unavailable (insecure context): the value stays selectable on the page.
      setCopied(false);
    }
  }
  // The button's new text is not announced by itself: a status message says the copy happened.
  return (
    <>
      <button type="button" className="btn" onClick={copy}>
        {copied ? "Copied" : label}
      </button>
      <span role="status" className="visually-hidden">
        {copied ? "Copied to the clipboard." : ""}
      </span>
    </>
  );
}
