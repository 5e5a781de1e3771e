// Settings of website scans (see README: SERVICE_SCAN_*).
import { setting } from "../env";

/** How long POST /scans waits for the result before answering 202 with the scan's id. */
export const scanWaitMs = () => setting("SERVICE_SCAN_WAIT_MS");
/** Longest time any one part of a scan (HTTP, HTTPS, TLS, DNS) may take. */
export const scanPartTimeoutMs = () => setting("SERVICE_SCAN_PART_TIMEOUT_MS");
/** Most bytes of the first HTML page read for the Subresource Integrity test. */
export const scanMaxBodyBytes = () => setting("SERVICE_SCAN_MAX_BODY_BYTES");
/**
 * A scan still "running" this long after it started can no longer finish: the instance running it stopped (restart,
 * crash) before saving the result. Reads mark it failed. The longest a scan can take is two parts in a row (the first
 * fetches, then the TLS summary of where HTTPS redirected), so twice the part timeout plus a minute of margin.
 */
export const scanStaleAfterMs = () => 2 * scanPartTimeoutMs() + 60_000;
