export { queryDns, queryTlsa, type DnsQueryOptions } from "./client";
export { getDnsServers, getDnsTimeoutMs, parseServer, type DnsServer } from "./config";
export * from "./types";
