// The parts of the OSV schema (https://ossf.github.io/osv-schema/) the service reads.
export type OsvEvent = { introduced?: string; fixed?: string; last_affected?: string; limit?: string };

export type OsvRange = {
  type: "SEMVER" | "ECOSYSTEM" | "GIT" | string;
  repo?: string;
  events: OsvEvent[];
  database_specific?: Record<string, unknown>;
};

export type OsvAffected = {
  package?: { ecosystem: string; name: string; purl?: string };
  ranges?: OsvRange[];
  versions?: string[];
  severity?: OsvSeverity[];
  ecosystem_specific?: Record<string, unknown>;
  database_specific?: Record<string, unknown>;
};

export type OsvSeverity = { type: string; score: string };

export type OsvVulnerability = {
  id: string;
  modified: string;
  published?: string;
  withdrawn?: string;
  aliases?: string[];
  related?: string[];
  summary?: string;
  details?: string;
  severity?: OsvSeverity[];
  affected?: OsvAffected[];
  references?: Array<{ type: string; url: string }>;
  database_specific?: Record<string, unknown>;
};
