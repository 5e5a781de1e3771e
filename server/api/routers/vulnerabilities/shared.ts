// What several procedures of the vulnerabilities router share (schemas, helpers), or what other modules import from it.

export const SEVERITY_RULE =
  "Severity is one of critical, high, moderate, low, unknown: the advisory database's own label when it has one (GitHub's CRITICAL/HIGH/MODERATE/LOW, npm's levels), else the highest CVSS base score of the record (v4.0, v3.x or v2.0 vectors) banded >= 9.0 critical, >= 7.0 high, >= 4.0 moderate, otherwise low; unknown when neither exists.";
