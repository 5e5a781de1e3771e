// The review queue's intake: an assessment whose final decision is review or challenge opens a case, written in
// the same transaction as the assessment's event. Working the queue (list, assign, resolve) is server/cases/.
import type { Db } from "../db/client";
import { sortableId } from "../ids";

/** The decisions a person should look at. */
export const opensCase = (decision: string) => decision === "review" || decision === "challenge";

/** Opens the case of an assessment, inside the transaction that records the assessment's event. */
export async function openCase(
  tx: Pick<Db, "reviewCase">,
  a: {
    workspaceId: string;
    requestId: string;
    decision: string;
    score: number;
    rule: string | null;
    subject: string | null;
    ip: string | null;
    deviceId: string | null;
  },
): Promise<void> {
  await tx.reviewCase.create({ data: { id: sortableId("case"), ...a, status: "open" } });
}
