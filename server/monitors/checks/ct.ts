// ct: the names certificate-transparency logs show under the target's registrable domain, and how many
// certificates name each; a new name or a new certificate is a change. Runs GET /domain/{domain}/subdomains.
// Never bad in itself (severity ok): its alerts say what is new.
import type { CheckSpec } from "./types";

interface Subdomains {
  subdomains: { name: string; certificates: number }[];
}

export const ctCheck: CheckSpec = {
  type: "ct",
  about: "ct: names under the domain in certificate-transparency logs and their certificate counts (first 500)",
  needsName: true,
  procedure: "domain.domainSubdomains",
  calls: (t) => [{ domain: t.host, limit: 500 }],
  state([r]: Subdomains[]) {
    const names = Object.fromEntries(
      [...r!.subdomains].sort((a, b) => a.name.localeCompare(b.name)).map((s) => [s.name, s.certificates]),
    );
    return { state: { names }, severity: "ok" };
  },
};
