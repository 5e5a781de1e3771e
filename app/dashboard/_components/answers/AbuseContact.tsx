"use client";
// "Who do I report this to?": the abuse contact of an IP's network or a domain's registrar, looked up on demand
// (GET /v1/ip/{ip}/abuse or /v1/domain/{domain}/abuse through the dashboard, 1 unit) from the registry's RDAP data.
// The button goes once pressed (the part then says it is asking, then the contact or why there is none): the focus
// it had goes to the part itself, so a keyboard user stays here (the browser would put it on the page's top).
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { ReadFailed } from "../ErrorNote";
import { useTRPC } from "../trpc";

type Contact = { name: string | null; email: string | null; phone: string | null } | null;

function ContactLines({
  abuse,
  owner,
  reason,
  registry,
}: {
  abuse: Contact;
  owner: string | null;
  reason: string | null;
  registry: string;
}) {
  if (!abuse)
    return (
      <p className="small" data-testid="abuse-none">
        {reason ?? "The registry publishes no abuse contact."}
      </p>
    );
  return (
    <p className="small" data-testid="abuse-found">
      {abuse.name ? <strong>{abuse.name}</strong> : null}
      {owner ? <span className="muted"> for {owner}</span> : null}
      {abuse.email ? (
        <>
          {" · "}
          <a href={`mailto:${abuse.email}`}>{abuse.email}</a>
        </>
      ) : null}
      {abuse.phone ? ` · ${abuse.phone}` : null}
      <span className="muted"> (from {registry})</span>
    </p>
  );
}

export function AbuseContact({ kind, target }: { kind: "ip" | "domain"; target: string }) {
  const trpc = useTRPC();
  const [asked, setAsked] = useState(false);
  const part = useRef<HTMLDivElement>(null);
  const hadFocus = useRef(false);
  useEffect(() => {
    if (asked && hadFocus.current) part.current?.focus();
    hadFocus.current = false;
  }, [asked]);
  const ip = useQuery({
    ...trpc.abuse.ipAbuse.queryOptions({ ip: target }),
    enabled: asked && kind === "ip",
    retry: false,
    // A lookup that uses a unit runs again only on its own Retry, never with another part's (ReadFailed).
    meta: { metered: true },
  });
  const domain = useQuery({
    ...trpc.abuse.domainAbuse.queryOptions({ domain: target }),
    enabled: asked && kind === "domain",
    retry: false,
    meta: { metered: true },
  });
  const q = kind === "ip" ? ip : domain;
  if (!target) return null;
  return (
    <div className="abuse-contact" data-testid="abuse-contact" ref={part} tabIndex={-1}>
      {!asked ? (
        <button
          type="button"
          className="btn"
          onClick={(e) => {
            hadFocus.current = document.activeElement === e.currentTarget;
            setAsked(true);
          }}
        >
          Find the abuse contact (1 unit)
        </button>
      ) : q.isPending ? (
        <p className="muted small" role="status">
          Asking the registry for the abuse contact…
        </p>
      ) : null}
      <ReadFailed what="The abuse contact" query={q} />
      {ip.data ? (
        <ContactLines
          abuse={ip.data.abuse}
          owner={ip.data.network.organization ?? ip.data.network.name}
          reason={ip.data.reason}
          registry={ip.data.source.registry}
        />
      ) : null}
      {domain.data ? (
        <ContactLines
          abuse={domain.data.abuse}
          owner={domain.data.registrar?.name ?? null}
          reason={domain.data.reason}
          registry={domain.data.source.registry}
        />
      ) : null}
    </div>
  );
}
