"use client";
// A new API key's plaintext, shown here once and never again (only its hash is stored). The box takes focus when it
// appears, so a screen reader says it (a region named by its first sentence, then the key) and the next Tab reaches
// its copy button: after "Create key" the focus would otherwise stay on that button, and nothing would say that a
// key the user must copy now had appeared.
import { useEffect, useId, useRef } from "react";
import { CopyButton } from "./CopyButton";

export function ShownOnceKey({ apiKey }: { apiKey: string }) {
  const box = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useEffect(() => box.current?.focus(), [apiKey]);
  return (
    <div
      className="shown-once"
      data-testid="shown-once-key"
      role="region"
      aria-labelledby={titleId}
      tabIndex={-1}
      ref={box}
    >
      <p className="small" id={titleId}>
        <strong>Copy this key now.</strong> It is shown only once; the service keeps only a hash of it.
      </p>
      <div className="row">
        <code data-testid="new-api-key" className="key-plaintext">
          {apiKey}
        </code>
        <CopyButton text={apiKey} label="Copy key" />
      </div>
    </div>
  );
}
