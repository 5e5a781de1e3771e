// Which database failures are outages (503, nothing charged) and which are bugs (500): issue 42, item 9. A failure is
// judged by where it happened (opening a connection, the server ending the session) before any list of codes.
import { describe, expect, it } from "vitest";
import { markConnectFailures, StoreConnectError, storeOutageReason } from "../../server/db/outage-reason";

function pgError(code: string, severity: string, message = "x") {
  return Object.assign(new Error(message), { code, severity });
}

describe("storeOutageReason", () => {
  it.each([
    ["a database that disallows connections (55000, FATAL)", pgError("55000", "FATAL")],
    ["a revoked password (28P01, FATAL)", pgError("28P01", "FATAL")],
    ["a server panic", pgError("XX000", "PANIC")],
    // As Prisma's driver adapter carries it: the server's error mapped to a plain object under cause.
    [
      "the adapter's mapped error",
      { name: "DriverAdapterError", cause: { kind: "postgres", code: "55000", severity: "FATAL" } },
    ],
    ["a TLS failure", { cause: { kind: "TlsConnectionError", reason: "handshake" } }],
    ["anything that failed while opening a connection", new StoreConnectError(new Error("odd"))],
    ["the same, wrapped by another error", new Error("outer", { cause: new StoreConnectError(new Error("odd")) })],
    ["the same, only its message kept", new Error(new StoreConnectError(new Error("odd")).message)],
  ])("%s is an outage", (_name, err) => {
    expect(storeOutageReason(err)).not.toBeNull();
  });

  it.each([
    ["a 55000 on an open session (ERROR, not FATAL)", pgError("55000", "ERROR")],
    ["a unique violation", pgError("23505", "ERROR")],
    ["a plain bug", new TypeError("x is undefined")],
  ])("%s is not", (_name, err) => {
    expect(storeOutageReason(err)).toBeNull();
  });
});

describe("markConnectFailures", () => {
  it("turns a failure to connect into a StoreConnectError, in the promise and the callback form", async () => {
    const refused = pgError("55000", "FATAL", 'database "d" is not currently accepting connections');
    const pool = {
      connect(cb?: (err: unknown, client?: unknown) => void): unknown {
        if (cb) return void cb(refused);
        return Promise.reject(refused);
      },
    };
    markConnectFailures(pool);
    const thrown = await (pool.connect() as Promise<unknown>).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(StoreConnectError);
    expect((thrown as Error).cause).toBe(refused);
    const passed = await new Promise((resolve) => pool.connect((err) => resolve(err)));
    expect(passed).toBeInstanceOf(StoreConnectError);
  });

  it("leaves a connection that opened alone", async () => {
    const client = { query: () => null };
    const pool = {
      connect(cb?: (err: unknown, client?: unknown) => void): unknown {
        if (cb) return void cb(undefined, client);
        return Promise.resolve(client);
      },
    };
    markConnectFailures(pool);
    expect(await pool.connect()).toBe(client);
    expect(await new Promise((resolve) => pool.connect((_err, c) => resolve(c)))).toBe(client);
  });
});
