// Settings of the domain routes, read at call time.

/**
 * SERVICE_DOMAIN_PART_TIMEOUT_MS: the longest GET /domain/{domain} waits for any one part (RDAP, DNS, email
 * authentication, blocklists) before answering without it, so the whole answer arrives within seconds.
 */
export function domainPartTimeoutMs(): number {
  const n = Number(process.env.SERVICE_DOMAIN_PART_TIMEOUT_MS);
  return Number.isInteger(n) && n > 0 ? n : 6000;
}

/** Resolves to the promise's value, or rejects with a readable error once `ms` have passed. */
export function withDeadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}
