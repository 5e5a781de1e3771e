// Text written with `code` spans (a fact's documentation from server/rules/facts.ts, a rule pack's description, an API error
// message), with those spans shown as code.
export function DocText({ text }: { text: string }) {
  return (
    <>
      {text
        .split(/(`[^`]+`)/)
        .map((part, i) =>
          part.startsWith("`") && part.endsWith("`") && part.length > 1 ? (
            <code key={i}>{part.slice(1, -1)}</code>
          ) : (
            part
          ),
        )}
    </>
  );
}
