// A yes/no fact coloured by what it means for the user, never by its value: "Disposable: no" is good news,
// "Hosting network: yes" is a warning, "Free provider: yes" is neutral. Unknown (null) is always neutral.
export type Meaning = "good" | "bad" | "neutral";

export function Flag({
  label,
  value,
  badWhen,
  testId,
}: {
  label: string;
  value: boolean | null | undefined;
  badWhen: boolean | "never";
  testId?: string;
}) {
  const meaning: Meaning =
    value === null || value === undefined || badWhen === "never" ? "neutral" : value === badWhen ? "bad" : "good";
  const text = value === null || value === undefined ? "unknown" : value ? "yes" : "no";
  return (
    <span className={`flag flag-${meaning}`} data-testid={testId} data-meaning={meaning}>
      {label}: <strong>{text}</strong>
    </span>
  );
}
