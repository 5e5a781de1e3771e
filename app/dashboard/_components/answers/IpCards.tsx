// Summary cards for IP answers: the reputation object (network, anonymisers from `privacy`, risk) and geolocation.
import { Flag } from "../Flag";
import { AbuseContact } from "./AbuseContact";
import { Country, Facts, type Json, Reasons, RiskBadge, Why } from "./parts";

const NETWORK_TEXT: Record<string, string> = {
  anonymizer: "Anonymiser (VPN, Tor or relay)",
  service: "Service (crawler, monitor or platform)",
  hosting: "Hosting or cloud",
  residential: "Residential or business access",
  unknown: "Unknown",
};

export function IpCard({ v }: { v: Json }) {
  const p: Json = v.privacy ?? {};
  const country = v.country ?? v.geo?.country;
  return (
    <div className="card answer-card" data-testid="answer-card" data-kind="ip">
      <h3 className="answer-title">
        <code>{v.ip}</code> <RiskBadge level={v.risk?.level} score={v.risk?.score} />
      </h3>
      <Facts
        rows={[
          [
            "Country",
            country ? (
              <Country code={typeof country === "string" ? country : country.code} name={country.name} />
            ) : null,
          ],
          ["ASN", v.asn ? `AS${v.asn.number}${v.asn.organization ? ` · ${v.asn.organization}` : ""}` : "none found"],
          [
            "Network",
            `${NETWORK_TEXT[v.network?.type] ?? v.network?.type ?? "unknown"}${v.network?.provider ? ` · ${v.network.provider}` : ""}`,
          ],
          ["Address scope", v.classification?.scope ?? null],
        ]}
      />
      <p className="flags" data-testid="anonymizer-badges">
        <Flag label="Tor" value={p.tor} badWhen={true} />
        <Flag label="VPN" value={p.vpn} badWhen={true} />
        <Flag label="Private relay" value={p.relay} badWhen={true} />
        <Flag label="Proxy" value={p.proxy} badWhen={true} />
        <Flag label="Hosting" value={p.hosting} badWhen={true} />
        <Flag label="CDN" value={p.cdn} badWhen="never" />
        <Flag label="Crawler" value={p.crawler} badWhen="never" />
        <Flag label="Monitor" value={p.monitor} badWhen="never" />
      </p>
      {p.service ? <p className="small">Known service: {p.service}</p> : null}
      <Reasons items={v.risk?.reasons ?? []} />
      <Why text={v.classification?.reason ?? v.asnReason} />
      {typeof v.ip === "string" && (v.classification?.scope ?? "public") === "public" ? (
        <AbuseContact kind="ip" target={v.ip} />
      ) : null}
    </div>
  );
}

export function GeoCard({ v }: { v: Json }) {
  const place = [v.city, v.district, v.region].filter(Boolean).join(", ");
  return (
    <div className="card answer-card" data-testid="answer-card" data-kind="geo">
      <h3 className="answer-title">
        <code>{v.ip}</code> <Country code={v.country?.code} name={v.country?.name} />
      </h3>
      <Facts
        rows={[
          ["Place", place || null],
          ["Postal code", v.postalCode],
          ["Coordinates", v.latitude !== null && v.latitude !== undefined ? `${v.latitude}, ${v.longitude}` : null],
          ["Time zone", v.timezone],
          [
            "Source",
            v.source?.name ? `${v.source.name}${v.source.databaseDate ? ` (${v.source.databaseDate})` : ""}` : null,
          ],
        ]}
      />
      <Why text={v.reason} />
    </div>
  );
}

const HOSTING_KIND: Record<string, string> = { cloud: "Cloud provider", hosting: "Hosting provider", cdn: "CDN" };

/** An autonomous system: who runs it, how much address space it announces, hosting and blocklist membership. */
export function AsnCard({ v }: { v: Json }) {
  const p: Json | null = v.prefixes ?? null;
  const h: Json = v.hosting ?? {};
  const lists: Json[] = Array.isArray(v.lists) ? v.lists : [];
  const listed = lists.filter((l) => l.listed === true);
  return (
    <div className="card answer-card" data-testid="answer-card" data-kind="asn">
      <h3 className="answer-title">
        <code>AS{v.asn}</code> {v.name ? <span>{v.name}</span> : null}{" "}
        {listed.length ? (
          <span className="badge risk-critical">blocklisted</span>
        ) : h.value ? (
          <span className="badge risk-medium">hosting</span>
        ) : null}
      </h3>
      <Facts
        rows={[
          ["Organisation", v.organization ?? "not known"],
          ["Country", v.country ? <Country code={v.country} /> : null],
          ["Registry", v.registry ?? null],
          [
            "IPv4 announced",
            p
              ? `${Number(p.ipv4.addresses).toLocaleString("en-US")} addresses in ${Number(p.ipv4.prefixes).toLocaleString("en-US")} prefixes`
              : null,
          ],
          [
            "IPv6 announced",
            p && p.ipv6.prefixes > 0
              ? `${Number(p.ipv6.slash48s).toLocaleString("en-US")} /48 networks in ${Number(p.ipv6.prefixes).toLocaleString("en-US")} prefixes`
              : p
                ? "none"
                : null,
          ],
          [
            "Hosting",
            h.value
              ? `${HOSTING_KIND[h.kind] ?? "Yes"}${h.provider ? ` · ${h.provider}` : ""}`
              : "No: an access or business network",
          ],
        ]}
      />
      {lists.length ? (
        <p className="flags" data-testid="asn-lists">
          {lists.map((l) => (
            <Flag key={l.list} label={l.name} value={l.listed} badWhen={true} />
          ))}
        </p>
      ) : null}
      <Why text={h.basis} />
      <Why text={v.prefixesReason} />
      <Why text={v.rdapReason} />
    </div>
  );
}
