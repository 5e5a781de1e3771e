// Every check a monitor can run, by type.
import { blocklistsCheck } from "./blocklists";
import { ctCheck } from "./ct";
import { dnsCheck } from "./dns";
import { emailSecurityCheck } from "./email-security";
import { packagesCheck } from "./packages";
import { reachabilityCheck } from "./reachability";
import { scanCheck } from "./scan";
import { tlsCheck } from "./tls";
import type { CheckSpec, CheckType } from "./types";

export const CHECKS: Record<CheckType, CheckSpec> = {
  tls: tlsCheck,
  scan: scanCheck,
  blocklists: blocklistsCheck,
  ct: ctCheck,
  dns: dnsCheck,
  email_security: emailSecurityCheck,
  reachability: reachabilityCheck,
  packages: packagesCheck,
};
