// The hot statements on the embedded store as named prepared statements. PGlite's own query() (and so Prisma's
// adapter) sends an unnamed statement through six calls into the WebAssembly module (parse, describe, bind,
// describe, execute, sync), and PostgreSQL parses, analyses and plans the text anew each time (the velocity read
// has five aggregate parts). Here a statement is parsed and described once per database under its name, and each run
// is one call carrying bind, execute and sync (with the plan mode set and reset around the statement:
// server/db/client.ts HOT_PLANS): on the embedded store, half the CPU of an assessment (docs/benchmarks.md).
//
// PGlite has one session. A Prisma interactive transaction holds it through PGlite's transaction lock, and a run
// here takes that lock as query() does, so it never lands inside another request's transaction; tests prove it
// (test/foundation/hot-query-driver.test.ts).
import type { PGlite } from "@electric-sql/pglite";

type PgliteLib = Pick<typeof import("@electric-sql/pglite"), "protocol" | "parse">;
type RowDescription = import("@electric-sql/pglite").messages.RowDescriptionMessage;
type DataRow = import("@electric-sql/pglite").messages.DataRowMessage;

/** What this module uses of PGlite beyond its documented API: its locks and its type (de)serialisers. */
interface PgliteInside {
  _checkReady(): Promise<void>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  serializers: Record<number, ((x: unknown) => string) | undefined>;
  parsers: Record<number, (x: string, typeId?: number) => unknown>;
}

/** A driver of the hot statements (server/db/client.ts hotQuery): runs `text` as the named statement `name`. */
export type NamedDriver = (name: string, text: string, values: unknown[]) => Promise<Record<string, unknown>[]>;

type Messages = Awaited<ReturnType<PGlite["execProtocolStream"]>>;

/** A column of a statement's answer: its name and the parser for its type. */
interface Field {
  name: string;
  type: number;
  parse: ((x: string, typeId?: number) => unknown) | undefined;
}

/** The columns a statement's description lists (none for a statement that returns no rows). */
function fieldsOf(messages: Messages, parsers: PgliteInside["parsers"]): Field[] {
  const description = messages.find((m) => m.name === "rowDescription") as RowDescription | undefined;
  return (description?.fields ?? []).map((f) => ({ name: f.name, type: f.dataTypeID, parse: parsers[f.dataTypeID] }));
}

/**
 * The rows of a statement's answer, each value read by PGlite's parser for its type (as its query() reads them),
 * by the columns its statement's description listed once when it was prepared: a run asks for no description of
 * its own (PostgreSQL would build one, and PGlite's protocol parser read it, for every run: for the velocity read,
 * sixty-odd columns' names). Not PGlite's parseResults, which copies the whole table of parsers (one per type,
 * arrays included) on every call: 8 % of the embedded store's CPU per assessment in the login benchmark.
 */
function rowsOf(messages: Messages, fields: Field[]): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (const m of messages) {
    if (m.name !== "dataRow") continue;
    const values = (m as DataRow).fields;
    const row: Record<string, unknown> = {};
    for (let i = 0; i < fields.length; i++) {
      const { name, type, parse } = fields[i]!;
      const v = values[i] ?? null;
      row[name] = v === null ? null : parse ? parse(v, type) : v;
    }
    rows.push(row);
  }
  return rows;
}

/** The setting each run of a hot statement is made with, and the statement that puts the session's default back. */
const GENERIC = { name: "service_plans_generic", text: "SET plan_cache_mode = force_generic_plan" };
const DEFAULT = { name: "service_plans_default", text: "RESET plan_cache_mode" };

/** A driver running named statements on `pg`, each parsed once and then only bound and executed. */
export function pgliteNamedDriver(pg: PGlite, lib: PgliteLib): NamedDriver {
  const inside = pg as unknown as PgliteInside;
  const { serialize } = lib.protocol;
  // The statement's text (a name is never reused for another text; if it were, it is prepared again), the types
  // PostgreSQL inferred for its parameters, which choose each value's text form as PGlite's query() does, and the
  // columns of its answer (in text form, as a run's bind asks for them).
  const prepared = new Map<string, { text: string; paramTypes: number[]; fields: Field[] }>();

  const prepare = async (name: string, text: string) => {
    const known = prepared.get(name);
    if (known?.text === text) return known;
    // Forgotten before the new text is parsed: if that fails, the name is prepared afresh on the next run.
    prepared.delete(name);
    const messages = await pg.execProtocolStream(
      Buffer.concat([
        ...(known ? [serialize.close({ type: "S", name })] : []),
        serialize.parse({ name, text }),
        serialize.describe({ type: "S", name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const statement = {
      text,
      paramTypes: lib.parse.parseDescribeStatementResults(messages),
      fields: fieldsOf(messages, inside.parsers),
    };
    prepared.set(name, statement);
    return statement;
  };

  return (name, text, values) =>
    inside._runExclusiveTransaction(() =>
      inside._runExclusiveQuery(async () => {
        // A run that waited for the locks past close()'s drain must not enter the closed module (./pglite-close.ts).
        await inside._checkReady();
        const { paramTypes, fields } = await prepare(name, text);
        await prepare(GENERIC.name, GENERIC.text);
        await prepare(DEFAULT.name, DEFAULT.text);
        const params = values.map((v, i) => {
          if (v === null || v === undefined) return null;
          const toText = inside.serializers[paramTypes[i]!];
          return toText ? toText(v) : String(v);
        });
        // Bind, execute and sync in one call; an error still ends at the sync, so the session is ready for the next
        // statement, and the error is thrown here. The statement runs with one generic plan (server/db/client.ts
        // HOT_PLANS): the setting is made and reset in the same implicit transaction, which an error rolls back
        // with it, so Prisma's statements on this session always find the default.
        const messages = await pg.execProtocolStream(
          Buffer.concat([
            serialize.bind({ statement: GENERIC.name, values: [] }),
            serialize.execute({}),
            serialize.bind({ statement: name, values: params }),
            serialize.execute({}),
            serialize.bind({ statement: DEFAULT.name, values: [] }),
            serialize.execute({}),
            serialize.sync(),
          ]),
          { syncToFs: true },
        );
        return rowsOf(messages, fields);
      }),
    );
}
