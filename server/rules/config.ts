// Rule settings, read at call time so tests and operators can change them without a restart.

/** SERVICE_RULES_MAX: how many rules one workspace may hold (default 100). */
export function maxRulesPerWorkspace(): number {
  const n = Number(process.env.SERVICE_RULES_MAX);
  return Number.isInteger(n) && n > 0 ? n : 100;
}
