// The public leaderboard: best graded and most improved public scans of the last 30 days, one entry per host.
// Private and unlisted scans never appear (getLeaderboard reads public scans only).
import Link from "next/link";
import { getDb } from "../../server/db/client";
import { getLeaderboard } from "../../server/site-scans/public";
import type { Leaderboard } from "../../server/site-scans/schemas";
import "./leaderboard.css";

export const dynamic = "force-dynamic";
export const metadata = { title: "Website security leaderboard" };

type Entry = Leaderboard["best"][number];

function Rows({ entries, improved }: { entries: Entry[]; improved?: boolean }) {
  if (entries.length === 0)
    return (
      <p className="lb-empty">
        {improved
          ? "No host has improved on a public scan in the last 30 days yet."
          : "No public scans in the last 30 days yet."}
      </p>
    );
  return (
    <ol className="lb-list">
      {entries.map((e) => (
        <li key={e.host} className="lb-row">
          <span className={`lb-grade lb-grade-${e.grade[0]}`} aria-label={`grade ${e.grade}`}>
            {e.grade}
          </span>
          <span className="lb-host">{e.host}</span>
          <span className="lb-score">
            {improved ? `${e.previous_score} → ${e.score} (+${e.improvement})` : `${e.score} points`}
          </span>
          <time className="lb-date" dateTime={e.scanned_at}>
            {e.scanned_at.slice(0, 10)}
          </time>
        </li>
      ))}
    </ol>
  );
}

export default async function LeaderboardPage() {
  const board = await getLeaderboard(await getDb());
  return (
    <main className="lb">
      <h1>Website security leaderboard</h1>
      <p className="lb-intro">
        Public scans of the last {board.window_days} days, one entry per host, graded from A+ to F on HTTP headers,
        cookies, TLS and DNS and mail records. <Link href="/docs#tag-Scans">How scans are scored</Link>. Only scans
        their owners made public are listed.
      </p>
      <section aria-labelledby="best">
        <h2 id="best">Best graded</h2>
        <Rows entries={board.best} />
      </section>
      <section aria-labelledby="improved">
        <h2 id="improved">Most improved</h2>
        <Rows entries={board.most_improved} improved />
      </section>
    </main>
  );
}
