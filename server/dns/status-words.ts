// DNS response statuses in words, wherever the dashboard shows one (a DNS answer, its Details, a monitor's DNS
// check): the resolver's code stays in brackets for whoever compares it with dig, never alone.

const WORDS: Record<string, { short: string; sentence: string }> = {
  NOERROR: { short: "Records found", sentence: "Records found" },
  NODATA: { short: "No record of this type", sentence: "The name exists but has no record of this type" },
  NXDOMAIN: { short: "Name does not exist", sentence: "This name does not exist" },
  SERVFAIL: { short: "No answer", sentence: "The name's DNS servers gave no usable answer" },
};

export const isDnsStatus = (status: string) => Object.hasOwn(WORDS, status.toUpperCase());

/** "This name does not exist (NXDOMAIN)"; a status not known here as it is. */
export function dnsStatusWords(status: string): string {
  const w = WORDS[status.toUpperCase()];
  return w ? `${w.sentence} (${status.toUpperCase()})` : status;
}

/** A badge's words: "Name does not exist". */
export function dnsStatusShort(status: string): string {
  return WORDS[status.toUpperCase()]?.short ?? status;
}
