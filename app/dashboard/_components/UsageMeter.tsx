// The workspace's monthly allowance at a glance. Plain props, usable from server and client components.
export interface UsageMeterProps {
  limit: number;
  used: number;
  remaining: number;
  /** ISO 8601: start of the next UTC month. */
  reset: string;
}

const fmt = new Intl.NumberFormat("en-US");

export function UsageMeter({ limit, used, remaining, reset }: UsageMeterProps) {
  const pct = limit > 0 ? Math.min(100, (used / limit) * 100) : 100;
  const level = pct >= 90 ? "danger" : pct >= 75 ? "warn" : "ok";
  return (
    <section className="meter" aria-label="Usage this month" data-testid="usage-meter">
      <div className="meter-figures">
        <span>
          <strong data-testid="usage-used">{fmt.format(used)}</strong> of{" "}
          <span data-testid="usage-limit">{fmt.format(limit)}</span> lookup units used
        </span>
        <span className="muted">
          <span data-testid="usage-remaining">{fmt.format(remaining)}</span> remaining
        </span>
      </div>
      <div
        className={`meter-bar meter-${level}`}
        role="progressbar"
        aria-label="Lookup units used this month"
        aria-valuetext={`${fmt.format(used)} of ${fmt.format(limit)} units used`}
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={used}
      >
        <div style={{ width: `${pct}%` }} />
      </div>
      <p className="muted small">
        Resets <time dateTime={reset}>{new Date(reset).toISOString().replace("T", " ").slice(0, 16)} UTC</time> (start
        of the next UTC month).
      </p>
    </section>
  );
}
