// Previous/next through a limit/offset list. Each page is a new lookup, so the buttons say what they cost.
import { BusyButton } from "../_components/BusyButton";
import { usePagerFocus } from "../_components/usePagerFocus";

export function Pager({
  offset,
  limit,
  total,
  shown,
  running,
  onPage,
  noun,
  bottom = false,
}: {
  offset: number;
  limit: number;
  total: number;
  shown: number;
  running: boolean;
  onPage: (offset: number) => void;
  noun: string;
  /** The copy under the list carries no test ids, so each id names one element. */
  bottom?: boolean;
}) {
  const focus = usePagerFocus(offset === 0, offset + limit >= total);
  if (total === 0) return null;
  const from = shown === 0 ? 0 : offset + 1;
  return (
    <div className="row-between vuln-pager" data-testid={bottom ? undefined : `${noun}-pager`}>
      <span className="small muted" data-testid={bottom ? undefined : `${noun}-range`}>
        {noun} {from}–{offset + shown} of {total}
      </span>
      <span className="row">
        <BusyButton
          type="button"
          className="btn"
          ref={focus.previous}
          disabled={offset === 0}
          busy={running}
          onClick={() => {
            focus.press("previous");
            onPage(Math.max(0, offset - limit));
          }}
        >
          Previous page (1 unit)
        </BusyButton>
        <BusyButton
          type="button"
          className="btn"
          ref={focus.next}
          disabled={offset + limit >= total}
          busy={running}
          onClick={() => {
            focus.press("next");
            onPage(offset + limit);
          }}
        >
          Next page (1 unit)
        </BusyButton>
      </span>
    </div>
  );
}
