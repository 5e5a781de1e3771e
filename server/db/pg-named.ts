// The hot statements on PostgreSQL as named prepared statements whose rows are described once. node-postgres runs a
// named statement as parse (once per connection), bind, describe, execute and sync: PostgreSQL builds the result's
// description and sends it on every run, and the client parses it and builds a parser per column (the velocity read
// has sixty-odd columns: a few per cent of the server's CPU per assessment, and of the database's). The description
// of a statement's text never changes, so here the first run anywhere in the process describes it and keeps the
// columns and their parsers; every later run, on any connection of the pool, sends parse (when that connection has
// not prepared it yet), bind, execute and sync, and reads its rows by the kept columns. A run that fails forgets the
// description, so the next one asks again. The same for the embedded store: ./pglite-named.ts.
import type { FieldDef, Pool, Query as PgQuery, QueryResult } from "pg";
import type { NamedDriver } from "./pglite-named";

/** A statement's columns as the first run described them, with a parser each and the row every result starts from. */
interface Described {
  fields: FieldDef[];
  parsers: unknown[];
  empty: Record<string, null>;
}

/** What this module reaches of node-postgres's Query and Result beyond their documented API (pg 8). */
interface QueryInside {
  callback: unknown;
  _accumulateRows: boolean;
  _result: { fields: FieldDef[]; _parsers: unknown[]; _prebuiltEmptyResultObject: Record<string, null> };
  listeners(event: string): unknown[];
}

interface Connection {
  /** An own property shadows the prototype's method for one prepare. */
  describe(m: { type: "P"; name: string }): void;
}

const skipDescribe = () => undefined;

/** The statements described so far, by name and text. */
const described = new Map<string, Described>();

/** Forgets every kept description (a test starting from none). */
export function forgetDescriptions(): void {
  described.clear();
}

/**
 * A driver (server/db/client.ts hotQuery) over `pool`; `Query` is node-postgres's own class, from the module the
 * pool came from.
 */
export function pgNamedDriver(pool: Pool, Query: typeof PgQuery): NamedDriver {
  const base = Query as unknown as new (config: object) => QueryInside;

  class DescribedQuery extends base {
    constructor(
      config: object,
      private readonly key: string,
      private readonly known: Described | undefined,
    ) {
      super(config);
    }

    prepare(connection: Connection): void {
      const known = this.known;
      const prepare = (base.prototype as unknown as { prepare(c: Connection): void }).prepare;
      if (!known) {
        prepare.call(this, connection);
        return;
      }
      // node-postgres's own prepare (parse when this connection lacks the statement, bind, execute, sync) with its
      // describe left out; the rows, which arrive later, are read by the kept columns.
      connection.describe = skipDescribe;
      try {
        prepare.call(this, connection);
      } finally {
        delete (connection as Partial<Connection>).describe;
      }
      this._result.fields = known.fields;
      this._result._parsers = known.parsers;
      this._result._prebuiltEmptyResultObject = known.empty;
      this._accumulateRows = Boolean(this.callback) || !this.listeners("row").length;
    }

    handleRowDescription(msg: unknown): void {
      (base.prototype as unknown as { handleRowDescription(m: unknown): void }).handleRowDescription.call(this, msg);
      const r = this._result;
      described.set(this.key, { fields: r.fields, parsers: r._parsers, empty: r._prebuiltEmptyResultObject });
    }
  }

  return async (name, text, values) => {
    const key = `${name}\0${text}`;
    const client = await pool.connect();
    // As pool.query does: a checked-out client's connection error (the database went away mid-run) is this run's
    // error, not an uncaught one, and a client whose run failed is not reused.
    return new Promise<Record<string, unknown>[]>((resolve, reject) => {
      let released = false;
      const settle = (err: Error | undefined, rows?: Record<string, unknown>[]) => {
        if (released) return;
        released = true;
        client.removeListener("error", onError);
        client.release(err);
        if (!err) return resolve(rows!);
        described.delete(key);
        reject(err);
      };
      const onError = (err: Error) => settle(err);
      client.once("error", onError);
      const query = new DescribedQuery(
        {
          name,
          text,
          values,
          callback: (err: Error | null, res: QueryResult) => settle(err ?? undefined, res?.rows),
        },
        key,
        described.get(key),
      );
      try {
        client.query(query as unknown as PgQuery);
      } catch (err) {
        settle(err instanceof Error ? err : new Error(String(err)));
      }
    });
  };
}
