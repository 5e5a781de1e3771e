// An answer the client never received is not charged. The REST entry gives each request a charge slot that the
// metered ladder fills once it reserved units; the response carries a callback under UNDELIVERED, and the server
// that writes it (scripts/rest-direct.mjs) calls it when the connection was gone before the answer could be
// written, or the write failed. The units go back with a ledger row saying why, and the request's history entry
// reads 499 with no units, so the month's entries still add up to the units used.
import type { Db } from "../../db/client";
import { markHistoryUndelivered } from "../../history/history";
import { periodStart } from "../../quota/period";
import { refundUnits } from "../../quota/adjust";
import { logger } from "../../operate/log";
import { UNDELIVERED_REASON } from "../charging";
import type { Charge } from "../context";

/** The response property the writing server looks for; a registered symbol, so the .mjs server needs no import. */
export const UNDELIVERED = Symbol.for("service.rest.undelivered");
export const UNDELIVERED_STATUS = 499;
export const UNDELIVERED_CODE = "CLIENT_CLOSED_REQUEST";

/** Gives back what one request was charged, and marks its history entry as not delivered. */
export async function refundUndelivered(db: Db, charge: Charge): Promise<void> {
  await refundUnits(db, {
    workspaceId: charge.workspaceId,
    periodStart: periodStart(charge.reservedAt),
    units: charge.units,
    requestId: charge.requestId,
    endpoint: charge.endpoint,
    apiKeyId: charge.apiKeyId,
    userId: charge.userId,
    reason: UNDELIVERED_REASON,
  });
  await markHistoryUndelivered(db, charge.workspaceId, charge.requestId, UNDELIVERED_STATUS, UNDELIVERED_CODE);
}

/** The refund of a charged request's answer, callable at most once; null when nothing was charged. */
export function undeliveredRefund(db: Db, slot: { current: Charge | null }): (() => void) | null {
  const charge = slot.current;
  if (!charge) return null;
  let called = false;
  return () => {
    if (called) return;
    called = true;
    refundUndelivered(db, charge).catch((err) =>
      logger().error({ err, request_id: charge.requestId }, "refunding an undelivered answer failed"),
    );
  };
}

/** Attaches the refund to a response when the request was charged; called at most once, whatever the server does. */
export function refundIfUndelivered(response: Response, db: Db, slot: { current: Charge | null }): Response {
  const refund = undeliveredRefund(db, slot);
  if (refund) Object.defineProperty(response, UNDELIVERED, { value: refund });
  return response;
}
