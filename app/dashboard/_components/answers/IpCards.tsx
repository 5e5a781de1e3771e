// Summary cards for IP answers: the reputation object (network, anonymisers from `privacy` with each class's provider,
// basis, confidence and list in words, risk) and geolocation.
import { Flag } from "../Flag";
import { AbuseContact } from "./AbuseContact";
import { Country, Facts, type Json, Reasons, RiskBadge, Why } from "./parts";

/** A network type (`network.type` of /ip/{ip}, `ip.network_type` of /assess) in words. */
export const NETWORK_TEXT: Record<string, string> = {
  anonymizer: "Anonymiser (VPN, Tor or relay)",
  service: "Service (internet scanner, crawler or monitor)",
  hosting: "Hosting or cloud",
  residential: "Residential or business access",
  unknown: "Unknown",
};

const CLASS_TEXT: [key: string, label: string][] = [
  ["tor", "Tor exit"],
  ["vpn", "VPN"],
  ["relay", "Private relay"],
  ["scanner", "Internet scanner"],
  ["hosting", "Hosting"],
];
const BASIS_TEXT: Record<string, string> = {
  provider_exit_list: "the provider's own list of its exits",
  exit_list: "the Tor Project's exit list",
  published_ranges: "the operator's own published ranges",
  scanner_list: "a list of the scanner's addresses",
  vpn_network: "a network known to carry VPN exits",
  vpn_asn: "a network (AS) known to carry VPN exits",
  datacenter_range: "a datacenter range",
  hosting_asn: "a hosting company's network (AS)",
};

/** Each anonymiser class that applies, in words: who, on what basis, how sure, which list of which date. */
export function ClassLines({ classes }: { classes: Json }) {
  const rows = CLASS_TEXT.filter(([k]) => classes?.[k]?.flag);
  if (!rows.length) return null;
  return (
    <ul className="small" data-testid="privacy-classes">
      {rows.map(([k, label]) => {
        const c: Json = classes[k];
        const basis = c.basis ? (BASIS_TEXT[c.basis] ?? c.basis) : null;
        return (
          <li key={k}>
            <strong>{label}</strong>
            {c.provider ? `: ${c.provider}` : ""}
            {basis ? `, from ${basis}` : ""}
            {c.confidence ? ` (${c.confidence} confidence)` : ""}
            {c.list ? `; ${c.list}` : ""}
            {c.snapshotDate ? `, list of ${c.snapshotDate}` : ""}
          </li>
        );
      })}
    </ul>
  );
}

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
        {p.scanner !== undefined ? <Flag label="Scanner" value={p.scanner} badWhen={true} /> : null}
      </p>
      {p.service ? <p className="small">Known service: {p.service}</p> : null}
      <ClassLines classes={p.classes} />
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

const HOSTING_KIND: Record<string, string> = {
  cloud: "Cloud provider",
  platform: "A platform's own network",
  hosting: "Hosting provider",
  cdn: "CDN",
};

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
