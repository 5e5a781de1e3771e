// The hot statements on the embedded store as named prepared statements. PGlite's own query() (and so Prisma's
// adapter) sends an unnamed statement through six calls into the WebAssembly module (parse, describe, bind,
// describe, execute, sync), and PostgreSQL parses, analyses and plans the text anew each time: for the velocity
// read, five aggregate parts over their indexes, that is most of its cost. Here a statement is parsed once per
// database under its name, and each run is one call carrying bind, describe, execute and sync.
//
// PGlite has one session. A Prisma interactive transaction holds it through PGlite's transaction lock, and a run
// here takes that lock as query() does, so it never lands inside another request's transaction; tests prove it
// (test/foundation/hot-query.test.ts).
import type { PGlite } from "@electric-sql/pglite";

type PgliteLib = Pick<typeof import("@electric-sql/pglite"), "protocol" | "parse">;

/** What this module uses of PGlite beyond its documented API: its locks and its type (de)serialisers. */
interface PgliteInside {
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  serializers: Record<number, ((x: unknown) => string) | undefined>;
  parsers: Record<number, (x: string, typeId?: number) => unknown>;
}

export type NamedDriver = (name: string, text: string, values: unknown[]) => Promise<Record<string, unknown>[]>;

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A driver running named statements on `pg`, each parsed once and then only bound and executed. */
export function pgliteNamedDriver(pg: PGlite, lib: PgliteLib): NamedDriver {
  const inside = pg as unknown as PgliteInside;
  const { serialize } = lib.protocol;
  // The statement's text (a name is never reused for another text; if it were, it is prepared again) and the types
  // PostgreSQL inferred for its parameters, which choose each value's text form as PGlite's query() does.
  const prepared = new Map<string, { text: string; paramTypes: number[] }>();

  const prepare = async (name: string, text: string) => {
    const known = prepared.get(name);
    if (known?.text === text) return known;
    const messages = await pg.execProtocolStream(
      concat([
        ...(known ? [serialize.close({ type: "S", name })] : []),
        serialize.parse({ name, text }),
        serialize.describe({ type: "S", name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const statement = { text, paramTypes: lib.parse.parseDescribeStatementResults(messages) };
    prepared.set(name, statement);
    return statement;
  };

  return (name, text, values) =>
    inside._runExclusiveTransaction(() =>
      inside._runExclusiveQuery(async () => {
        const { paramTypes } = await prepare(name, text);
        const params = values.map((v, i) => {
          if (v === null || v === undefined) return null;
          const toText = inside.serializers[paramTypes[i]!];
          return toText ? toText(v) : String(v);
        });
        // Bind, describe, execute and sync in one call; an error still ends at the sync, so the session is ready
        // for the next statement, and the error is thrown here.
        const messages = await pg.execProtocolStream(
          concat([
            serialize.bind({ statement: name, values: params }),
            serialize.describe({ type: "P" }),
            serialize.execute({}),
            serialize.sync(),
          ]),
          { syncToFs: true },
        );
        return (lib.parse.parseResults(messages, inside.parsers)[0]?.rows ?? []) as Record<string, unknown>[];
      }),
    );
}
