// A webhook URL is a user-supplied target the service will POST to: https only (http only where private targets
// are allowed, i.e. tests and local development), and it must pass the SSRF guard now. Every delivery vets it
// again, because DNS can change after registration.
import { AppError } from "../errors";
import { allowPrivateTargets, assertPublicTargetOrThrow, parseFetchUrlOrThrow } from "../net";

export async function assertWebhookUrlOrThrow(url: string): Promise<string> {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new AppError("INVALID_REQUEST", "url: must be a full address starting with https://.");
  }
  const httpAllowed = allowPrivateTargets();
  if (parsed.protocol !== "https:" && !(httpAllowed && parsed.protocol === "http:")) {
    throw new AppError("INVALID_REQUEST", "url: must start with https://.");
  }
  if (parsed.username || parsed.password)
    throw new AppError("INVALID_REQUEST", "url: must not contain a user name or password.");
  parseFetchUrlOrThrow(parsed.href);
  await assertPublicTargetOrThrow(parsed.href);
  return parsed.href;
}
