// DNS statuses read in words wherever the dashboard shows them: the DNS answer's card and the Details of any answer
// (they showed a bare NXDOMAIN).
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { valueWords } from "../../app/dashboard/_components/answers/detail-words";
import { DnsCard } from "../../app/dashboard/_components/answers/NameCards";

describe("DNS statuses in words", () => {
  it.each([
    ["NXDOMAIN", "This name does not exist (NXDOMAIN)"],
    ["NODATA", "The name exists but has no record of this type (NODATA)"],
    ["SERVFAIL", "The name's DNS servers gave no usable answer (SERVFAIL)"],
    ["NOERROR", "Records found (NOERROR)"],
  ])("the Details say %s as %s", (status, words) => {
    expect(valueWords(status)).toBe(words);
  });

  it("leaves other capitals alone", () => {
    expect(valueWords("US")).toBe("US");
  });

  it("the DNS card's badge says a missing name in words, never the bare code", () => {
    const html = renderToStaticMarkup(
      createElement(DnsCard, {
        v: {
          domain: "nothing-here.test",
          type: "A",
          status: "NXDOMAIN",
          statusMeaning: "The name does not exist.",
          records: [],
        },
      }),
    );
    const badge = /data-testid="dns-status">([^<]*)</.exec(html)?.[1];
    expect(badge).toBe("Name does not exist");
    expect(html).toContain("The name does not exist.");
  });
});
