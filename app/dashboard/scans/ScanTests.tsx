// Every test of a scan: failures first, each with what was seen, what it means and the fix.
import type { ScanView } from "../../../server/site-scans/schemas";

type Test = NonNullable<ScanView["tests"]>[number];

const pointsText = (t: Test) => (t.points > 0 ? `+${t.points}${t.counted ? "" : " (not counted)"}` : String(t.points));

export function ScanTests({ tests }: { tests: Test[] }) {
  const ordered = [...tests].sort((a, b) => a.points - b.points);
  return (
    <section aria-labelledby="scan-tests">
      <h2 id="scan-tests">Tests</h2>
      <ul className="scan-tests" data-testid="scan-tests">
        {ordered.map((t) => (
          <li key={t.id} className={`scan-test ${t.points < 0 ? "scan-test-fail" : "scan-test-pass"}`}>
            <div className="row-between">
              <strong>{t.title}</strong>
              <span className={`weight ${t.points < 0 ? "weight-up" : t.points > 0 ? "weight-down" : ""}`}>
                {pointsText(t)}
              </span>
            </div>
            <p>{t.reason}</p>
            {t.fix ? (
              <p className="scan-fix">
                <span className="scan-fix-label">Fix:</span> {t.fix}
              </p>
            ) : null}
            {t.detail ? <p className="muted small scan-detail">Seen: {t.detail}</p> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
