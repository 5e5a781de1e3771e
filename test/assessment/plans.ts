// Reading the velocity statement's plans in tests (EXPLAIN ... FORMAT JSON of a prepared statement).

/** The part of a plan node (EXPLAIN FORMAT JSON) the tests read. */
export interface PlanNode {
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  /** With VERBOSE: the node's output expressions. */
  Output?: string[];
  Filter?: string;
  Plans?: PlanNode[];
}

/** Every scan of `relation` in the plan. */
export function scansOf(node: PlanNode, relation: string, out: PlanNode[] = []): PlanNode[] {
  if (node["Relation Name"] === relation) out.push(node);
  for (const child of node.Plans ?? []) scansOf(child, relation, out);
  return out;
}

/** The index a scan reads through: its own, or its bitmap's (a Bitmap Heap Scan over one Bitmap Index Scan). */
export const indexOf = (scan: PlanNode): string | undefined => scan["Index Name"] ?? scan.Plans?.[0]?.["Index Name"];

/** Every scan of the Event table in the plan. */
export const scansOfEvent = (node: PlanNode) => scansOf(node, "Event");

/** A statement parameter as an SQL literal, for EXECUTE name(...). */
export const literal = (v: unknown): string =>
  v === null || v === undefined
    ? "NULL"
    : `'${(v instanceof Date ? v.toISOString().replace("T", " ").replace("Z", "") : String(v)).replace(/'/g, "''")}'`;
