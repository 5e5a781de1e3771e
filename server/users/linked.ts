// An account's linked accounts (issue 45, item 2): the other accounts of the workspace that shared one of its
// identifiers (device, canonical mailbox, phone number, card) in the last 30 days, each with what links them. Read
// from the counters the assessment's write keeps (server/assessment/identity-keys.ts): the account's identifiers
// ("links:<account>" pairs), then each identifier's accounts ("accounts:<identifier>"), one statement, every row
// of this workspace only.
import type { Db } from "../db/client";
import { parsePhone, type PhoneType } from "../phone/parse";
import {
  accountName,
  accountsKeyOf,
  identifierOf,
  linksKeyOf,
  parseIdentifier,
  phoneKeyOf,
  type LinkKind,
} from "../assessment/identity-keys";

export const LINK_WINDOW_DAYS = 30;
/** At most this many linked accounts are listed (the most recently linked first). */
export const MAX_LINKED = 50;

export interface LinkedAccount {
  /** The account's user_id, else its email address. */
  account: string;
  key: "user_id" | "email";
  links: { kind: LinkKind; value: string }[];
  last_linked_at: string;
}

// The join spells an identifier's accounts key as accountsKeyOf does ("accounts:" + identifier).
const SQL = `
SELECT a."other" AS "account", l."other" AS "identifier", max(a."lastAt") AS "lastAt"
  FROM "VelocityPair" l
  JOIN "VelocityPair" a ON a."workspaceId" = l."workspaceId" AND a."key" = 'accounts:' || l."other"
 WHERE l."workspaceId" = $1 AND l."key" = $2 AND l."lastAt" >= $3 AND a."lastAt" >= $3 AND a."other" <> $4
 GROUP BY 1, 2
 ORDER BY 3 DESC, 1, 2
 LIMIT 1000`;

/** A card's identifier as people read it: the processor's fingerprint, else BIN and last four. */
export function displayIdentifier(kind: LinkKind, value: string): string {
  if (kind !== "card") return value;
  const bin = /^bin:(\d+):(\d{4})$/.exec(value);
  return bin ? `${bin[1]}…${bin[2]}` : value.replace(/^fp:/, "");
}

export async function linkedAccountsOf(
  db: Db,
  a: { workspaceId: string; subject: string; now?: Date },
): Promise<LinkedAccount[]> {
  const since = new Date((a.now ?? new Date()).getTime() - LINK_WINDOW_DAYS * 86_400_000);
  const rows = await db.$queryRawUnsafe<{ account: string; identifier: string; lastAt: Date }[]>(
    SQL,
    a.workspaceId,
    linksKeyOf(a.subject),
    since,
    a.subject,
  );
  const out = new Map<string, LinkedAccount>();
  for (const r of rows) {
    const id = parseIdentifier(r.identifier);
    // A card known by BIN and last four only links no one (identity-keys.ts identityKeysOf); such links kept from
    // before that rule are not followed either.
    if (!id || (id.kind === "card" && id.value.startsWith("bin:"))) continue;
    let acct = out.get(r.account);
    if (!acct) {
      if (out.size >= MAX_LINKED) continue;
      acct = {
        account: accountName(r.account),
        key: r.account.startsWith("user:") ? "user_id" : "email",
        links: [],
        last_linked_at: new Date(r.lastAt).toISOString(),
      };
      out.set(r.account, acct);
    }
    acct.links.push({ kind: id.kind, value: displayIdentifier(id.kind, id.value) });
  }
  return [...out.values()];
}

/** At most this many accounts of one phone number are searched for (the most recently linked first). */
export const MAX_ACCOUNTS_OF_PHONE = 100;

/**
 * The accounts ("user:<id>", "email:<mailbox>") that gave a phone number, most recently first, read from the links
 * the assessments keep (as long as the counters keep them); none when the text is not a number the numbering plans
 * read without a country (E.164: + and the country calling code), which is how a number is keyed.
 */
export async function accountsOfPhone(db: Db, a: { workspaceId: string; phone: string }): Promise<string[]> {
  // Cheap refusal of what cannot be a number before the numbering plans read it (a search for an email, an id).
  if (!/^\+[\d\s().-]{4,30}$/.test(a.phone)) return [];
  const e164 = phoneKeyOf(a.phone);
  if (!e164) return [];
  const rows = await db.velocityPair.findMany({
    where: { workspaceId: a.workspaceId, key: accountsKeyOf(identifierOf("phone", e164)) },
    orderBy: [{ lastAt: "desc" }, { other: "asc" }],
    select: { other: true },
    take: MAX_ACCOUNTS_OF_PHONE,
  });
  return rows.map((r) => r.other);
}

/** The account's own identifiers of the last 30 days, by kind, most recent first. */
export async function identifiersOf(
  db: Db,
  a: { workspaceId: string; subject: string; now?: Date },
): Promise<
  {
    kind: LinkKind;
    value: string;
    last_seen_at: string;
    phone: { valid: boolean; type: PhoneType | null; country: string | null } | null;
  }[]
> {
  const since = new Date((a.now ?? new Date()).getTime() - LINK_WINDOW_DAYS * 86_400_000);
  const rows = await db.velocityPair.findMany({
    where: { workspaceId: a.workspaceId, key: linksKeyOf(a.subject), lastAt: { gte: since } },
    orderBy: [{ lastAt: "desc" }, { other: "asc" }],
    take: 200,
  });
  return rows.flatMap((r) => {
    const id = parseIdentifier(r.other);
    if (!id) return [];
    // A phone number as the numbering plans read it (stored in E.164 when they could).
    const p = id.kind === "phone" ? parsePhone(id.value) : null;
    return [
      {
        kind: id.kind,
        value: displayIdentifier(id.kind, id.value),
        last_seen_at: r.lastAt.toISOString(),
        phone: p ? { valid: p.valid, type: p.valid ? p.type : null, country: p.country } : null,
      },
    ];
  });
}
