// Every check a monitor can run, by type.
import { blocklistsCheck } from "./blocklists";
import { ctCheck } from "./ct";
import { dnsCheck } from "./dns";
import { emailSecurityCheck } from "./email-security";
import { packagesCheck } from "./packages";
import { projectCheck } from "./project";
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
  project: projectCheck,
};

/** True when none of the checks looks at the target: their monitor may name a project instead of a host. */
export const targetFree = (checks: readonly { type: string }[]) =>
  checks.length > 0 && checks.every((c) => CHECKS[c.type as CheckType]?.targetFree === true);
