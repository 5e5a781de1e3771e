// Which destinations a protected link may point to. The service never fetches them, but a redirector that sends
// browsers to a private, loopback or metadata address turns every clicker's browser into a probe of their own
// network, so the destination host goes through the same SSRF guard as any outbound target.
import { AppError } from "../errors";
import { addressRefusal, assertPublicTargetOrThrow, isBadHttpPort, type TargetResolver } from "../net";
import { defaultResolver } from "../net/resolve";
import { resolveTimeoutMs } from "./config";
import type { Destination } from "./normalize";

export async function assertLinkTargetOrThrow(d: Destination): Promise<void> {
  // Browsers refuse these ports (WHATWG Fetch "bad port"), as every route that connects to a URL does: a link there
  // could never be followed, and HTTP aimed at a mail or SSH port is protocol smuggling.
  if (isBadHttpPort(d.port))
    throw new AppError("TARGET_FORBIDDEN", `Target refused: port ${d.port} is not an HTTP port.`);
  if (d.ipLiteral) {
    // Raw addresses are how phishing links dodge name-based reputation; a protected link must name its host.
    const why = addressRefusal(d.host) ?? `${d.host} is an IP address; a protected link must name its host`;
    throw new AppError("TARGET_FORBIDDEN", `Target refused: ${why}.`);
  }
  await assertPublicTargetOrThrow(d.host, { resolver: boundedResolver() });
}

/**
 * Link creation must stay fast: a name that does not resolve in time is treated like one that does not resolve
 * (the guard lets those pass; the service never connects to a link's destination itself).
 */
function boundedResolver(): TargetResolver {
  const inner = defaultResolver();
  const ms = resolveTimeoutMs();
  return (host) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Awaited<ReturnType<TargetResolver>>>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            ok: false,
            reason: `DNS resolution timed out after ${ms} ms`,
            notFound: false,
            resolver: "bounded",
            durationMs: ms,
          }),
        ms,
      );
    });
    return Promise.race([inner(host), late]).finally(() => clearTimeout(timer));
  };
}
