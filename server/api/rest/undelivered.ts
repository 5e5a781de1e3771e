// An answer the client never received is not charged (step 10 of the ladder, server/api/ladder.ts). The REST entry
// gives each request a charge slot that the ladder fills once it reserved units; the response carries a callback
// under UNDELIVERED, and the server that writes it (scripts/rest-direct.mjs) calls it when the connection was gone
// before the answer could be written, or the write failed. The units go back with a ledger row saying why, and the
// request's history entry reads 499 with no units, so the month's entries still add up to the units used.
import type { Db } from "../../db/client";
import type { Charge } from "../context";
import { undeliveredRefund } from "../ladder";

export { refundUndelivered, undeliveredRefund, UNDELIVERED_CODE, UNDELIVERED_STATUS } from "../ladder";

/** The response property the writing server looks for; a registered symbol, so the .mjs server needs no import. */
export const UNDELIVERED = Symbol.for("service.rest.undelivered");

/** Attaches the refund to a response when the request was charged; called at most once, whatever the server does. */
export function refundIfUndelivered(response: Response, db: Db, slot: { current: Charge | null }): Response {
  const refund = undeliveredRefund(db, slot);
  if (refund) Object.defineProperty(response, UNDELIVERED, { value: refund });
  return response;
}
