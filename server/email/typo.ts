// Typo suggestions for the domains most addresses use, as Mailcheck does: "gmial.com" -> "gmail.com".

export const COMMON_DOMAINS = [
  "gmail.com",
  "googlemail.com",
  "yahoo.com",
  "yahoo.co.uk",
  "yahoo.fr",
  "yahoo.co.jp",
  "ymail.com",
  "hotmail.com",
  "hotmail.co.uk",
  "hotmail.fr",
  "outlook.com",
  "live.com",
  "msn.com",
  "icloud.com",
  "me.com",
  "mac.com",
  "aol.com",
  "proton.me",
  "protonmail.com",
  "gmx.com",
  "gmx.de",
  "gmx.net",
  "web.de",
  "mail.ru",
  "yandex.ru",
  "yandex.com",
  "comcast.net",
  "verizon.net",
  "att.net",
  "sbcglobal.net",
  "bellsouth.net",
  "cox.net",
  "qq.com",
  "163.com",
  "126.com",
  "naver.com",
  "orange.fr",
  "free.fr",
  "laposte.net",
  "libero.it",
  "t-online.de",
  "btinternet.com",
  "zoho.com",
];
const COMMON = new Set(COMMON_DOMAINS);
const TLD_FIXES: Record<string, string> = {
  con: "com",
  cmo: "com",
  ocm: "com",
  comm: "com",
  cpm: "com",
  vom: "com",
  xom: "com",
  nte: "net",
  ent: "net",
  ogr: "org",
  rog: "org",
};

/** Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

const splitTld = (d: string) => {
  const dot = d.lastIndexOf(".");
  return { name: d.slice(0, dot), tld: d.slice(dot + 1) };
};

/**
 * A likely intended domain, or null when the domain is common already or nothing is close enough. Only names under
 * the same top-level domain are compared ("yahoo.de" is real, not a typo of "yahoo.fr"); a misspelt ".com" is
 * fixed separately.
 */
export function suggestDomain(domain: string): string | null {
  if (COMMON.has(domain)) return null;
  const { name, tld } = splitTld(domain);
  const fixedTld = TLD_FIXES[tld] ?? tld;
  if (fixedTld !== tld && COMMON.has(`${name}.${fixedTld}`)) return `${name}.${fixedTld}`;
  let best: { domain: string; dist: number } | null = null;
  for (const c of COMMON_DOMAINS) {
    const parts = splitTld(c);
    if (parts.tld !== fixedTld) continue;
    const dist = editDistance(name, parts.name);
    if (dist > 0 && dist <= (parts.name.length >= 5 ? 2 : 1) && (!best || dist < best.dist)) best = { domain: c, dist };
  }
  if (best) return best.domain;
  return fixedTld !== tld ? `${name}.${fixedTld}` : null;
}
