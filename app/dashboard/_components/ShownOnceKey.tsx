"use client";
import { CopyButton } from "./CopyButton";

/** A new API key's plaintext: shown here once and never again (only its hash is stored). */
export function ShownOnceKey({ apiKey }: { apiKey: string }) {
  return (
    <div className="shown-once" data-testid="shown-once-key">
      <p className="small">
        <strong>Copy this key now.</strong> It is shown only once; the service keeps only a hash of it.
      </p>
      <div className="row">
        <code data-testid="new-api-key" className="key-plaintext">
          {apiKey}
        </code>
        <CopyButton text={apiKey} />
      </div>
    </div>
  );
}
