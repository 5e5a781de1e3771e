// An answer the client never received is not charged (step 10 of the ladder, server/api/ladder.ts). The REST door
// gives each request a charge slot that the ladder fills once it reserved units; its answer carries a callback
// (`undelivered`; a web Response under UNDELIVERED, server/api/rest/handler.ts), and the server that writes it (scripts/rest-direct.mjs) calls it when the connection was gone
// before the answer could be written, or the write failed. The units go back with a ledger row saying why, and the
// request's history entry reads 499 with no units, so the month's entries still add up to the units used.
export { refundUndelivered, undeliveredRefund, UNDELIVERED_CODE, UNDELIVERED_STATUS } from "../ladder";

/** The response property the writing server looks for; a registered symbol, so the .mjs server needs no import. */
export const UNDELIVERED = Symbol.for("service.rest.undelivered");
