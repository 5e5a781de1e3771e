// A half-circle gauge for a 0..100 risk score, coloured by its risk band. Plain SVG: no chart library needed.
const LEVEL_COLOURS: Record<string, string> = {
  low: "#15803d",
  medium: "#b45309",
  high: "#c2410c",
  critical: "#b91c1c",
};

export function ScoreGauge({ score, level }: { score: number; level: string }) {
  const clamped = Math.max(0, Math.min(100, score));
  // Arc length of a half circle with radius 40 is 40π; the dash shows the score's share of it.
  const length = Math.PI * 40;
  return (
    <svg
      viewBox="0 0 100 60"
      width="160"
      height="96"
      role="img"
      aria-label={`Risk score ${clamped} of 100, ${level}`}
      data-testid="score-gauge"
    >
      <path d="M10 50 A40 40 0 0 1 90 50" fill="none" stroke="#e5e7eb" strokeWidth="10" strokeLinecap="round" />
      <path
        d="M10 50 A40 40 0 0 1 90 50"
        fill="none"
        stroke={LEVEL_COLOURS[level] ?? "#2563eb"}
        strokeWidth="10"
        strokeLinecap="round"
        strokeDasharray={`${(length * clamped) / 100} ${length}`}
      />
      <text x="50" y="48" textAnchor="middle" fontSize="20" fontWeight="600" fill="#111827">
        {clamped}
      </text>
      <text x="50" y="58" textAnchor="middle" fontSize="7" fill="#4b5563">
        of 100
      </text>
    </svg>
  );
}
