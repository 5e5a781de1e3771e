// The transaction client a monitor's writes share (one type, imported by the modules that write inside a transaction,
// so that none of them has to import monitors.ts back for it).
import type { Db } from "../db/client";

export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];
