// Sender slots: domains (or single addresses) the workspace sends email from. A sender proves control of its
// domain with a TXT record, then its posture is checked daily while it holds one of the plan's slots. The oldest
// senders keep the slots after a downgrade; the others stay listed and are not monitored.
import { randomBytes } from "node:crypto";
import { recordAudit, type Actor } from "../audit/audit";
import type { Db } from "../db/client";
import { isHostName, checkDomainName } from "../dns/names";
import { parseAddress } from "../email/syntax";
import { AppError } from "../errors";
import { sortableId } from "../ids";
import { PLAN_SLUGS, PLANS } from "../plans/catalog";
import { queryDns } from "../providers/dns";
import type { AddSenderInput, SenderList, SenderPosture, SenderView } from "./schemas";
import { refreshPosture } from "./monitor";
import { logger } from "../operate/log";

export const VERIFICATION_LABEL = "_service-verification";
const VALUE_PREFIX = "service-verification=";

type SenderRow = Awaited<ReturnType<Db["sender"]["findFirstOrThrow"]>>;

/** The plans that have sender slots, by their catalog names (for the Free plan's 403). */
export function planNamesWithSenderSlots(): string[] {
  return PLAN_SLUGS.filter((s) => PLANS[s].senders > 0).map((s) => PLANS[s].name);
}

export function plansWithSenderSlots(): string {
  const names = planNamesWithSenderSlots();
  return `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

export function assertSenderSlots(slots: number): void {
  if (slots <= 0)
    throw new AppError(
      "CAPABILITY_REQUIRED",
      `Sender slots come with the ${plansWithSenderSlots()}; this workspace's plan has none.`,
    );
}

function notMonitoredReason(s: SenderRow, withinSlots: boolean, slots: number): string | null {
  if (!withinSlots) {
    return slots === 0
      ? "The workspace's plan has no sender slots, so this sender is not monitored."
      : `The workspace's plan has ${slots} sender slot${slots === 1 ? "" : "s"} and older senders hold ${slots === 1 ? "it" : "them"}, so this sender is not monitored.`;
  }
  return s.status === "verified" ? null : "Not verified yet: publish the TXT record, then verify.";
}

function view(s: SenderRow, withinSlots: boolean, slots: number): SenderView {
  const reason = notMonitoredReason(s, withinSlots, slots);
  return {
    id: s.id,
    kind: s.kind as SenderView["kind"],
    domain: s.domain,
    address: s.kind === "address" ? s.value : null,
    dkim_selectors: s.dkimSelectors,
    status: s.status as SenderView["status"],
    verification: {
      type: "TXT",
      name: `${VERIFICATION_LABEL}.${s.domain}`,
      value: `${VALUE_PREFIX}${s.verificationToken}`,
    },
    verified_at: s.verifiedAt?.toISOString() ?? null,
    monitored: reason === null,
    not_monitored_reason: reason,
    posture: publicPosture(s.posture as (SenderPosture & { known?: unknown }) | null),
    last_checked_at: s.lastCheckedAt?.toISOString() ?? null,
    created_at: s.createdAt.toISOString(),
  };
}

/** The stored posture without the monitor's bookkeeping (its last known verdicts). */
function publicPosture(p: (SenderPosture & { known?: unknown }) | null): SenderPosture | null {
  if (!p) return null;
  const { known: _known, ...rest } = p;
  return rest;
}

const ordered = (db: Db, workspaceId: string) =>
  db.sender.findMany({ where: { workspaceId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });

export async function listSenders(db: Db, a: { workspaceId: string; slots: number }): Promise<SenderList> {
  const rows = await ordered(db, a.workspaceId);
  return {
    items: rows.map((s, i) => view(s, i < a.slots, a.slots)),
    slots: a.slots,
    used: rows.length,
    plans_with_slots: planNamesWithSenderSlots(),
  };
}

async function getSenderOrThrow(db: Db, a: { workspaceId: string; id: string; slots: number }): Promise<SenderView> {
  const rows = await ordered(db, a.workspaceId);
  const i = rows.findIndex((s) => s.id === a.id);
  if (i < 0) throw new AppError("NOT_FOUND", "No such sender.");
  return view(rows[i], i < a.slots, a.slots);
}

function parseSenderOrThrow(input: AddSenderInput): { kind: "domain" | "address"; value: string; domain: string } {
  if (input.address !== undefined) {
    const p = parseAddress(input.address);
    if (!p.valid) throw new AppError("INVALID_REQUEST", `address: ${p.reason}`);
    return { kind: "address", value: `${p.localPart}@${p.domain}`.toLowerCase(), domain: p.domain };
  }
  const d = checkDomainName(input.domain ?? "");
  if (!d.ok) throw new AppError("INVALID_REQUEST", `domain: ${d.reason}`);
  if (!isHostName(d.name))
    throw new AppError(
      "INVALID_REQUEST",
      "domain: a sending domain has at least two labels and no underscores, e.g. example.com.",
    );
  return { kind: "domain", value: d.name, domain: d.name };
}

export async function addSenderOrThrow(
  db: Db,
  a: { workspaceId: string; slots: number; input: AddSenderInput; actor: Actor },
): Promise<SenderView> {
  assertSenderSlots(a.slots);
  const s = parseSenderOrThrow(a.input);
  const id = await db.$transaction(async (tx) => {
    // Two owners adding at once must not both take the last slot.
    await tx.$queryRawUnsafe(`SELECT 1 FROM "Workspace" WHERE "id" = $1 FOR UPDATE`, a.workspaceId);
    if (await tx.sender.findUnique({ where: { workspaceId_value: { workspaceId: a.workspaceId, value: s.value } } })) {
      throw new AppError("CONFLICT", `${s.value} is already a sender of this workspace.`);
    }
    const used = await tx.sender.count({ where: { workspaceId: a.workspaceId } });
    if (used >= a.slots) {
      throw new AppError(
        "SENDER_LIMIT_REACHED",
        `This workspace's plan has ${a.slots} sender slot${a.slots === 1 ? "" : "s"}, all in use; remove a sender or ask for a plan with more.`,
      );
    }
    const created = await tx.sender.create({
      data: {
        id: sortableId("snd"),
        workspaceId: a.workspaceId,
        kind: s.kind,
        value: s.value,
        domain: s.domain,
        dkimSelectors: [...new Set(a.input.dkim_selectors)],
        verificationToken: randomBytes(18).toString("base64url"),
        status: "pending",
      },
    });
    await recordAudit(tx, {
      workspaceId: a.workspaceId,
      type: "audit.sender.added",
      actor: a.actor,
      target: { kind: "sender", id: created.id, label: s.value },
      after: { kind: s.kind, value: s.value, dkim_selectors: created.dkimSelectors },
    });
    return created.id;
  });
  return getSenderOrThrow(db, { workspaceId: a.workspaceId, id, slots: a.slots });
}

export async function removeSenderOrThrow(
  db: Db,
  a: { workspaceId: string; id: string; actor: Actor },
): Promise<{ id: string; removed: true }> {
  await db.$transaction(async (tx) => {
    const s = await tx.sender.findFirst({ where: { id: a.id, workspaceId: a.workspaceId } });
    if (!s) throw new AppError("NOT_FOUND", "No such sender.");
    // Counted: the same removal sent twice at once is 404 for the second, not a failed delete (500).
    const removed = await tx.sender.deleteMany({ where: { id: s.id, workspaceId: a.workspaceId } });
    if (removed.count === 0) throw new AppError("NOT_FOUND", "No such sender.");
    await recordAudit(tx, {
      workspaceId: a.workspaceId,
      type: "audit.sender.removed",
      actor: a.actor,
      target: { kind: "sender", id: s.id, label: s.value },
      before: { kind: s.kind, value: s.value, status: s.status },
    });
  });
  return { id: a.id, removed: true };
}

/**
 * Looks the TXT record up through the service's DNS client. Found: the sender is verified (once; verifying again
 * changes nothing) and, when it holds a slot, its posture is checked right away. Not found: 409 with the record
 * to publish. No resolver answered: 503, nothing changed.
 */
export async function verifySenderOrThrow(
  db: Db,
  a: { workspaceId: string; id: string; slots: number; actor: Actor },
): Promise<SenderView> {
  const current = await getSenderOrThrow(db, a);
  if (current.status === "verified") return current;
  const { name, value } = current.verification;
  const q = await queryDns(name, "TXT");
  if (!["NOERROR", "NODATA", "NXDOMAIN"].includes(q.status)) {
    throw new AppError(
      "UPSTREAM_UNAVAILABLE",
      `The DNS lookup of ${name} failed (${q.status}); nothing changed, try again shortly.`,
    );
  }
  const texts = q.records
    .filter((r) => r.type === "TXT")
    .map((r) => (r.data && "strings" in r.data ? r.data.strings.join("") : r.value));
  if (!texts.some((t) => t.trim() === value)) {
    throw new AppError(
      "CONFLICT",
      `No TXT record "${value}" at ${name} yet. Publish it at your DNS provider; new records can take a few minutes to appear.`,
    );
  }
  const now = new Date();
  const verified = await db.$transaction(async (tx) => {
    const n = await tx.sender.updateMany({
      where: { id: a.id, workspaceId: a.workspaceId, status: "pending" },
      data: { status: "verified", verifiedAt: now },
    });
    if (n.count === 0) return false; // verified concurrently, or removed meanwhile
    await recordAudit(tx, {
      workspaceId: a.workspaceId,
      type: "audit.sender.verified",
      actor: a.actor,
      target: { kind: "sender", id: a.id, label: current.address ?? current.domain },
      before: { status: "pending" },
      after: { status: "verified" },
    });
    return true;
  });
  const after = await getSenderOrThrow(db, a);
  if (!verified || !after.monitored) return after;
  try {
    await refreshPosture(db, a.id);
  } catch (err) {
    // The daily check will fill the posture in; verification itself has succeeded.
    logger().error({ err, component: "senders", sender_id: a.id }, "first posture check failed");
  }
  return getSenderOrThrow(db, a);
}
