// The one rule for a write error that means the output has gone: its terminal closed (EIO) or its reader left
// (EPIPE). Plain JavaScript, so that scripts/log.mjs (run before the server's code) and server/operate/log.ts share it.

/** Write errors meaning the output has gone. */
export const OUTPUT_GONE = Object.freeze(new Set(["EIO", "EPIPE"]));

/** True when `err` says the output has gone (writes to it can only be dropped); any other error is a fault. */
export function outputGone(err) {
  return OUTPUT_GONE.has(err?.code);
}
