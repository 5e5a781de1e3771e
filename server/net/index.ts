// The outbound-network toolkit: IP classification and the SSRF guard for every connection to a user-supplied target.
export * from "./ip";
export { addressRefusal, assertPublicTargetOrThrow, resolveTargetOrThrow, targetForbidden, vetTarget } from "./ssrf";
export type { VetOptions, VetResult, VettedTarget } from "./ssrf";
export {
  safeFetch,
  parseFetchUrlOrThrow,
  isBadHttpPort,
  type SafeFetchOptions,
  type SafeFetchResult,
  type FetchHop,
} from "./safe-fetch";
export { connectTlsToVetted, pinnedLookup, type TlsConnection } from "./connect";
export {
  isWrittenAsUrl,
  looseIpv4Problem,
  spellsNonPublicIpv4,
  normalizeHostName,
  parseHostAndPort,
  parseTargetUrl,
  parseWrittenHostAndPort,
  parseWrittenTargetUrl,
  type TargetHost,
  type TargetUrl,
} from "./target";
export { systemResolver, configuredResolver, type TargetResolver, type Resolution } from "./resolve";
export { allowPrivateTargets } from "./config";
