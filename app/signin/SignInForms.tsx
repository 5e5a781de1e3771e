"use client";
import { signIn } from "next-auth/react";
import { useState } from "react";

export function OidcSignInButton({ label, callbackUrl }: { label: string; callbackUrl: string }) {
  return (
    <button type="button" className="signin-btn" onClick={() => void signIn("oidc", { callbackUrl })}>
      Continue with {label}
    </button>
  );
}

export function DevSignInForm({ callbackUrl }: { callbackUrl: string }) {
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        void signIn("dev", { email, callbackUrl });
      }}
    >
      <label>
        Email
        <input
          type="email"
          name="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
          autoFocus
          placeholder="you@example.com"
        />
      </label>
      <button type="submit" className="signin-btn" disabled={busy}>
        Sign in (development)
      </button>
    </form>
  );
}
