// Settings of the HTTP entries, read at call time (tests and operators change them without a restart) and
// checked at start (server/startup/validate.ts).
import { setting } from "../env";

/**
 * SERVICE_TRUST_PROXY: how many reverse proxies in front of the service set X-Forwarded-For, -Host and -Proto.
 * 0 (the default) trusts none of those headers: anyone can send them, so they are ignored. 1 is one proxy (a
 * load balancer or nginx) that appends the caller's address; 2 is two in a row (a CDN, then a load balancer).
 */
export const trustedProxyCount = () => setting("SERVICE_TRUST_PROXY");
