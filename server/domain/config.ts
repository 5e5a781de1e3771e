// Settings of the domain routes, read at call time.
import { setting } from "../env";

/**
 * SERVICE_DOMAIN_PART_TIMEOUT_MS: the longest GET /domain/{domain} waits for any one part (RDAP, DNS, email
 * authentication, blocklists) before answering without it, so the whole answer arrives within seconds.
 */
export function domainPartTimeoutMs(): number {
  return setting("SERVICE_DOMAIN_PART_TIMEOUT_MS");
}

/** Resolves to the promise's value, or rejects with a readable error once `ms` have passed. */
export function withDeadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}
