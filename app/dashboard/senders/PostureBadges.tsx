// A verified sender's posture in plain words: one badge per check, and each check's reason underneath.
import { OVERALL_WORDS, VERDICT_WORDS, type Verdict as Status } from "../../../server/email/security/verdict-words";

export interface Posture {
  overall: Status;
  spf: { status: Status; reason: string };
  dkim: { status: Status; reason: string; selectors: string[] };
  dmarc: { status: Status; reason: string; policy: string | null };
  /** Mail transport parts; missing from a posture checked before they were added. */
  mta_sts?: { status: Status; reason: string };
  tls_rpt?: { status: Status; reason: string };
  dane?: { status: Status; reason: string };
  bimi?: { status: Status; reason: string };
  blocklists: { status: "listed" | "not_listed" | "incomplete"; listed_on: string[]; reason: string };
  checked_at: string;
}

const TONE: Record<Status, string> = { pass: "good", warn: "warn", fail: "bad", unknown: "unknown" };

/** The optional mail transport protections, after SPF, DKIM and DMARC: a missing one "needs attention", never fails. */
const TRANSPORT = [
  ["mta_sts", "MTA-STS"],
  ["tls_rpt", "TLS reporting"],
  ["dane", "DANE"],
  ["bimi", "BIMI logo"],
] as const;

function blocklistWords(b: Posture["blocklists"]): [string, Status] {
  if (b.status === "listed") return [`Blocklisted on ${b.listed_on.join(", ")}`, "fail"];
  if (b.status === "not_listed") return ["Not on blocklists", "pass"];
  return ["Blocklists partly checked", "unknown"];
}

export function OverallBadge({ status }: { status: Status }) {
  return (
    <span className={`posture-badge tone-${TONE[status]}`} data-testid="posture-overall">
      {OVERALL_WORDS[status]}
    </span>
  );
}

export function PostureBadges({ posture }: { posture: Posture }) {
  const [blText, blStatus] = blocklistWords(posture.blocklists);
  const checks: { key: string; name?: string; label: string; status: Status; reason: string }[] = [
    {
      key: "spf",
      label: `SPF ${VERDICT_WORDS[posture.spf.status]}`,
      status: posture.spf.status,
      reason: posture.spf.reason,
    },
    {
      key: "dkim",
      label: `DKIM ${VERDICT_WORDS[posture.dkim.status]}`,
      status: posture.dkim.status,
      reason: posture.dkim.reason,
    },
    {
      key: "dmarc",
      label:
        posture.dmarc.status === "pass" && posture.dmarc.policy
          ? `DMARC enforced (${posture.dmarc.policy})`
          : `DMARC ${VERDICT_WORDS[posture.dmarc.status]}`,
      status: posture.dmarc.status,
      reason: posture.dmarc.reason,
    },
    ...TRANSPORT.flatMap(([key, name]) => {
      const part = posture[key];
      return part
        ? [{ key, name, label: `${name} ${VERDICT_WORDS[part.status]}`, status: part.status, reason: part.reason }]
        : [];
    }),
    { key: "blocklists", label: blText, status: blStatus, reason: posture.blocklists.reason },
  ];
  return (
    <div className="posture" data-testid="posture">
      <div className="posture-badges">
        {checks.map((c) => (
          <span key={c.key} className={`posture-badge tone-${TONE[c.status]}`} data-testid={`posture-${c.key}`}>
            {c.label}
          </span>
        ))}
      </div>
      <ul className="posture-reasons small">
        {checks
          .filter((c) => c.status !== "pass")
          .map((c) => (
            <li key={c.key}>
              <strong>{c.name ?? (c.key === "blocklists" ? "Blocklists" : c.key.toUpperCase())}:</strong> {c.reason}
            </li>
          ))}
      </ul>
    </div>
  );
}
