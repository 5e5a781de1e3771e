// The lookup console's catalog, as plain serialisable data handed from the server page to the client view.
export interface LookupField {
  name: string;
  in: "path" | "query";
  required: boolean;
  type: string;
  description: string | null;
  enumValues: string[] | null;
  defaultValue: string | null;
  /** A value to show as an example (from the schema, else from console/field-text.ts). */
  example: string | null;
}

export interface LookupEntry {
  /** tRPC path, e.g. "geo.ipGeo"; the console calls exactly this procedure. */
  procedure: string;
  kind: "query" | "mutation";
  method: string;
  /** REST path template under /v1, or null for a dashboard-only procedure. */
  path: string | null;
  tag: string;
  summary: string;
  description: string;
  capability: string;
  cost: string;
  bulk: string;
  fields: LookupField[];
  /** A starting JSON body for procedures that take one, built from the schema's required properties. */
  bodyTemplate: string | null;
  bodyFields: { name: string; type: string; required: boolean; description: string | null }[];
}
