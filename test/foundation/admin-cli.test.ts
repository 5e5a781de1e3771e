// The admin CLI (`npm run admin`): as a process, on an embedded database folder no server holds and through a running
// server's admin channel; the commands behind it through the channel's own request (sendAdminCommand, what the CLI
// sends), so that each case starts the CLI's process only where the process is what it checks.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSocketPath, listenAdminChannel, sendAdminCommand } from "../../server/admin/channel";
import { answerAdminCommand, runAdminCommand } from "../../server/admin/commands";
import { toErrorBody } from "../../server/errors";
import { createTestApp, restRequest, type TestApp } from "../harness";
import { startFeedServer } from "../fakes/feed-server";
import { runProcess } from "../run-process";

const root = path.resolve(__dirname, "../..");

function cli(args: string[], env: Record<string, string>) {
  return runProcess([process.execPath, "--import", "tsx", path.join(root, "server/admin/cli.ts"), ...args], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "test", DATABASE_URL: "", ...env },
  });
}

describe("admin CLI on an embedded database folder with no server running", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "svc-cli-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("creates a workspace and prints it as JSON", async () => {
    const created = await cli(["workspace", "create", "--name", "Acme", "--plan", "suite_starter", "--json"], {
      SERVICE_DATA_DIR: dir,
    });
    expect(created.code).toBe(0);
    const ws = JSON.parse(created.stdout);
    expect(Object.keys(ws).sort()).toEqual(["apiKey", "workspaceId"]);
    expect(ws.apiKey).toMatch(/^svc_live_/);
  }, 60_000);
});

describe("admin CLI help", () => {
  it("prints the usage on stdout and exits 0 for --help, -h and help, without opening a database", async () => {
    const dir = path.join(os.tmpdir(), `svc-cli-help-${process.pid}`);
    for (const args of [["--help"], ["-h"], ["help"], ["workspace", "--help"]]) {
      const r = await cli(args, { SERVICE_DATA_DIR: dir });
      expect({ args, code: r.code, stderr: r.stderr }).toEqual({ args, code: 0, stderr: "" });
      expect(r.stdout).toMatch(/^usage: npm run admin -- <command> \[--json\]/);
      expect(r.stdout).toContain("workspace create --name NAME");
    }
    expect(existsSync(dir)).toBe(false);
  }, 60_000);
});

describe("admin CLI when the database cannot be reached", () => {
  it("says why, not the API's 'retry after the time in Retry-After', and exits 1", async () => {
    // A port on 127.0.0.1 that nothing listens on: taken, then closed.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const env = { DATABASE_URL: `postgresql://postgres@127.0.0.1:${port}/none` };
    const text = await cli(["usage", "--workspace", "ws_x"], env);
    expect({ code: text.code, stdout: text.stdout }).toEqual({ code: 1, stdout: "" });
    expect(text.stderr).toBe(
      `error: cannot use the database: could not open a database connection (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    const json = await cli(["usage", "--workspace", "ws_x", "--json"], env);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toEqual({
      error: {
        code: "UPSTREAM_UNAVAILABLE",
        message: `cannot use the database: could not open a database connection (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:${port}`,
      },
    });
  }, 60_000);
});

describe("admin CLI when PostgreSQL refuses the connection", () => {
  it("says what the server said (a database that does not exist), not only its SQLSTATE", async () => {
    // `DATABASE_URL=postgresql://...@host/nonexistent_db npm run admin -- usage ...` said only "could not open a
    // database connection (3D000)", while the server's start-up names the database. A PostgreSQL server on
    // 127.0.0.1 that answers every startup message as PostgreSQL does for a database that does not exist:
    const field = (code: string, text: string) => Buffer.concat([Buffer.from(code), Buffer.from(`${text}\0`)]);
    const fields = Buffer.concat([
      field("S", "FATAL"),
      field("V", "FATAL"),
      field("C", "3D000"),
      field("M", 'database "nonexistent_db" does not exist'),
      Buffer.from([0]),
    ]);
    const head = Buffer.alloc(5);
    head.write("E", 0);
    head.writeInt32BE(fields.length + 4, 1);
    const server = createServer((socket) => {
      socket.once("data", () => socket.end(Buffer.concat([head, fields])));
      socket.on("error", () => undefined);
    });
    const port = await new Promise<number>((resolve) =>
      server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
    );
    try {
      const r = await cli(["usage", "--workspace", "ws_x"], {
        DATABASE_URL: `postgresql://postgres:pw@127.0.0.1:${port}/nonexistent_db`,
      });
      expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 1, stdout: "" });
      expect(r.stderr).toBe(
        'error: cannot use the database: could not open a database connection (3D000): database "nonexistent_db" does not exist',
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);
});

describe("admin CLI on an embedded database whose files are damaged", () => {
  it("says which folder cannot be opened and what to do, in one line without a stack, and exits 1", async () => {
    // It printed the whole error with PGlite's stack, then "error: Internal error.".
    const dir = mkdtempSync(path.join(os.tmpdir(), "svc-cli-damaged-"));
    try {
      const store = path.join(dir, "pglite");
      const pg = await PGlite.create(store);
      await pg.close();
      writeFileSync(path.join(store, "global", "pg_control"), Buffer.alloc(8192, 0x5a));
      const r = await cli(["usage", "--workspace", "ws_x"], { SERVICE_DATA_DIR: dir });
      expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 1, stdout: "" });
      expect(r.stderr.split("\n")).toEqual([
        `error: the embedded database in ${store} cannot be opened (PGlite failed to initialize properly): its files ` +
          `are damaged, or are not a database this version can read. Restore a backup into the data folder ${dir} ` +
          `(README "Backup and restore"), or move ${store} out of it to start with a new, empty database.`,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("admin CLI through a running server's admin channel", () => {
  let app: TestApp;
  const dir = mkdtempSync(path.join(os.tmpdir(), "svc-chan-"));
  let close: () => void = () => {};
  let socket = "";

  beforeAll(async () => {
    app = await createTestApp();
    const saved = process.env.SERVICE_DATA_DIR;
    process.env.SERVICE_DATA_DIR = dir;
    socket = adminSocketPath();
    // The server's own handler (server/startup/index.ts), on this file's database.
    const server = await listenAdminChannel((argv) => answerAdminCommand(app.db, argv));
    process.env.SERVICE_DATA_DIR = saved;
    close = () => server?.close();
  });
  afterAll(() => {
    close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A command as the CLI hands it to the server's channel; its JSON result. */
  async function channel(argv: string[]): Promise<any> {
    const { status, body } = await sendAdminCommand([...argv, "--json"], socket);
    expect(status, JSON.stringify(body)).toBe(200);
    return body.result;
  }

  it("exits 1 for a feeds refresh whose source failed, as it does without a server", async () => {
    const feeds = await startFeedServer({ "/tor": { status: 500, body: "down" } });
    const saved = process.env.SERVICE_FEED_TOR_EXITS_URL;
    // The refresh runs in the server (this process), which reads the feed's address.
    process.env.SERVICE_FEED_TOR_EXITS_URL = `${feeds.url}/tor`;
    try {
      const r = await cli(["feeds", "refresh", "--feed", "tor-exits", "--json"], { SERVICE_DATA_DIR: dir });
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout)).toMatchObject([{ name: "tor-exits", ok: false }]);
      // With --json, stderr is the JSON error every other failure writes.
      expect(JSON.parse(r.stderr)).toMatchObject({
        error: { code: "FEED_REFRESH_FAILED", message: expect.stringContaining("tor-exits") },
      });
    } finally {
      if (saved === undefined) delete process.env.SERVICE_FEED_TOR_EXITS_URL;
      else process.env.SERVICE_FEED_TOR_EXITS_URL = saved;
      await feeds.close();
    }
  }, 60_000);

  it("runs every command against the server's database", async () => {
    const env = { SERVICE_DATA_DIR: dir };
    // The CLI's process finds the server's channel and prints the result as JSON.
    const created = await cli(["workspace", "create", "--name", "Chan", "--plan", "suite_starter", "--json"], env);
    expect(created.code).toBe(0);
    const ws = JSON.parse(created.stdout);
    const key = await channel(["key", "create", "--workspace", ws.workspaceId]);
    expect(Object.keys(key).sort()).toEqual(["apiKey", "keyId"]);
    expect((await restRequest("GET", "/v1/ip/8.8.8.8/geo", { key: key.apiKey })).status).toBe(200);

    const plan = await channel(["plan", "set", "--workspace", ws.workspaceId, "--plan", "free"]);
    expect(plan.plans).toEqual(["free"]);
    expect(plan.pausedKeys).toEqual([key.keyId]);
    expect((await restRequest("GET", "/v1/ip/8.8.8.8/geo", { key: key.apiKey })).body.error.code).toBe(
      "API_KEY_PAUSED",
    );

    const adjusted = await channel([
      "usage",
      "adjust",
      "--workspace",
      ws.workspaceId,
      "--units",
      "-1",
      "--reason",
      "goodwill",
    ]);
    expect(adjusted).toMatchObject({ limit: 1000, used: 0, remaining: 1000 });
    expect(await channel(["usage", "--workspace", ws.workspaceId])).toEqual({
      limit: 1000,
      used: 0,
      remaining: 1000,
      reset: expect.stringMatching(/-01T00:00:00\.000Z$/),
    });
    const ledger = await app.db.usageLedger.findFirst({
      where: { workspaceId: ws.workspaceId, endpoint: "admin.usage.adjust" },
    });
    expect(ledger).toMatchObject({ units: -1, reason: "goodwill" });

    const firstKey = await app.db.apiKey.findFirstOrThrow({
      where: { workspaceId: ws.workspaceId },
      orderBy: { createdAt: "asc" },
    });
    const revoked = await channel(["key", "revoke", "--key", firstKey.id]);
    expect(revoked.status).toBe("revoked");
    expect((await restRequest("GET", "/v1/ip/8.8.8.8/geo", { key: ws.apiKey })).status).toBe(401);

    // Bad input fails clearly: the CLI's exit code and its error as JSON on stderr; the channel's 400 for a command
    // it does not know.
    const bad = await cli(["workspace", "create", "--name", "X", "--plan", "platinum", "--json"], env);
    expect(bad.code).not.toBe(0);
    expect(JSON.parse(bad.stderr).error.code).toBe("INVALID_REQUEST");
    expect(JSON.parse(bad.stderr).error.message).toMatch(/platinum/);
    const unknown = await sendAdminCommand(["frobnicate"], socket);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/unknown command/);
  }, 90_000);
});

describe("admin channel of a server whose embedded database is in memory", () => {
  it("opens no socket (there is no folder for it, and no other process could reach the database)", async () => {
    const saved = process.env.SERVICE_DATA_DIR;
    process.env.SERVICE_DATA_DIR = "memory://";
    try {
      expect(await listenAdminChannel(async () => ({ status: 200, body: {} }))).toBeNull();
    } finally {
      if (saved === undefined) delete process.env.SERVICE_DATA_DIR;
      else process.env.SERVICE_DATA_DIR = saved;
    }
  });
});

describe("admin commands refuse what they would otherwise ignore or fail on", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });

  /** The command's refusal as the CLI and the channel report it: status and error body. */
  async function refusal(argv: string[]): Promise<{ status: number; code: string; message: string }> {
    try {
      await runAdminCommand(app.db, argv);
    } catch (err) {
      const { status, body } = toErrorBody(err);
      return { status, ...body.error };
    }
    throw new Error(`${argv.join(" ")} was not refused`);
  }

  it("refuses a flag the command does not take, and words after it, before doing anything", async () => {
    const ws = (await runAdminCommand(app.db, ["workspace", "create", "--name", "Typos", "--plan", "suite_agency"]))
      .result as { workspaceId: string };
    const keys = () => app.db.apiKey.count({ where: { workspaceId: ws.workspaceId } });
    const before = await keys();

    const typo = await refusal(["key", "create", "--workspace", ws.workspaceId, "--nmae", "ci"]);
    expect(typo).toMatchObject({ status: 400, code: "INVALID_REQUEST" });
    expect(typo.message).toMatch(/^key create does not take --nmae\nusage: npm run admin -- key create --workspace ID/);
    expect(await keys()).toBe(before);

    const owner = await refusal(["workspace", "create", "--name", "B", "--plan", "free", "--ownr", "ops@example.com"]);
    expect(owner.message).toMatch(/does not take --ownr/);
    expect(await app.db.workspace.count({ where: { name: "B" } })).toBe(0);

    // `usage` without `adjust` shows the usage: units given to it would be dropped silently.
    expect((await refusal(["usage", "--workspace", ws.workspaceId, "--units", "5"])).message).toMatch(
      /^usage does not take --units/,
    );

    // An unquoted reason: only its first word would be recorded.
    const unquoted = await refusal([
      "usage",
      "adjust",
      "--workspace",
      ws.workspaceId,
      "--units",
      "-5",
      "--reason",
      "refund",
      "for",
      "outage",
    ]);
    expect(unquoted.message).toMatch(/^unexpected words "for", "outage" \(quote a value that holds spaces\)/);
    expect(await app.db.usageLedger.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);

    // `--feed` with no name would have refreshed every feed.
    expect(await refusal(["feeds", "refresh", "--feed"])).toMatchObject({ status: 400, message: "--feed is required" });

    // What every command takes still runs.
    const r = await runAdminCommand(app.db, ["key", "create", "--workspace", ws.workspaceId, "--name", "ci", "--json"]);
    expect(Object.keys(r.result as object).sort()).toEqual(["apiKey", "keyId"]);
  }, 60_000);

  it("refuses key create --name with no value instead of creating a key under the default name", async () => {
    // `key create --workspace ws_... --name` (the name left out, or `--name --json`) created a key named as if
    // --name had not been given, exit 0 (found walking README's Operate section).
    const ws = (await runAdminCommand(app.db, ["workspace", "create", "--name", "Named", "--plan", "suite_agency"]))
      .result as { workspaceId: string };
    const keys = () => app.db.apiKey.count({ where: { workspaceId: ws.workspaceId } });
    const before = await keys();
    for (const argv of [
      ["key", "create", "--workspace", ws.workspaceId, "--name"],
      ["key", "create", "--workspace", ws.workspaceId, "--name", "--json"],
      ["key", "create", "--workspace", ws.workspaceId, "--name="],
    ])
      expect({ argv, ...(await refusal(argv)) }).toEqual({
        argv,
        status: 400,
        code: "INVALID_REQUEST",
        message: "--name is required",
      });
    expect(await keys()).toBe(before);
  }, 60_000);

  it("names the commands of an area given alone or with a verb it does not have", async () => {
    // `workspace` alone said "unknown command: workspace", as if there were no workspace commands.
    expect((await refusal(["workspace"])).message).toMatch(/^workspace takes create\nusage: /);
    expect((await refusal(["key", "list"])).message).toMatch(
      /^key takes one of create, revoke \(not "list"\)\nusage: /,
    );
    expect((await refusal(["feeds"])).message).toMatch(/^feeds takes one of status, refresh\n/);
    expect((await refusal(["bogus"])).message).toMatch(/^unknown command: bogus\n/);
  }, 60_000);

  it("refuses a workspace whose --owner is not an email address, creating nothing", async () => {
    // `workspace create --owner notanemail` made a workspace owned by "notanemail" (found walking README's Operate
    // section from a fresh clone); inviting the same address as a member is refused.
    for (const owner of ["notanemail", "ops@", "two words@example.com", ""]) {
      const r = await refusal(["workspace", "create", "--name", "Owned", "--plan", "free", "--owner", owner]);
      expect({ owner, ...r }).toMatchObject({ owner, status: 400, code: "INVALID_REQUEST" });
      expect(r.message).toMatch(/--owner/);
    }
    expect(await app.db.workspace.count({ where: { name: "Owned" } })).toBe(0);
    const ok = await runAdminCommand(app.db, [
      "workspace",
      "create",
      "--name",
      "Owned",
      "--plan",
      "free",
      "--owner",
      " Ops@Example.com ",
    ]);
    const id = (ok.result as { workspaceId: string }).workspaceId;
    expect(await app.db.member.findMany({ where: { workspaceId: id }, select: { email: true, role: true } })).toEqual([
      { email: "ops@example.com", role: "owner" },
    ]);
  }, 60_000);

  it("refuses units beyond what the usage can count, naming the range", async () => {
    const ws = (await runAdminCommand(app.db, ["workspace", "create", "--name", "Big", "--plan", "free"])).result as {
      workspaceId: string;
    };
    for (const units of ["99999999999999999999", "2147483648", "-1000000001"]) {
      const r = await refusal(["usage", "adjust", "--workspace", ws.workspaceId, "--units", units, "--reason", "x"]);
      expect({ units, ...r }).toMatchObject({ units, status: 400, code: "INVALID_REQUEST" });
      expect(r.message).toMatch(/from -1000000000 to 1000000000/);
    }
    expect(await app.db.usageLedger.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
    // The command's own input is judged before the workspace is looked up: a typo in --units was answered "No such
    // workspace." when the id was wrong too, and the operator fixed one to meet the other.
    const both = await refusal(["usage", "adjust", "--workspace", "ws_missing", "--units", "abc", "--reason", "x"]);
    expect(both).toMatchObject({ status: 400, code: "INVALID_REQUEST" });
    expect(both.message).toMatch(/^--units must be/);
  }, 60_000);

  it("says what the database refused in an operator's statement", async () => {
    const cases: [string[], RegExp][] = [
      [["--query", "SELEC 1"], /syntax error at or near "SELEC" \(SQLSTATE 42601\)$/],
      [["--query", 'SELECT * FROM "NoSuchTable"'], /relation "NoSuchTable" does not exist/],
      [["--query", "SELECT $1::int AS n", "--param", "x"], /invalid input syntax for type integer: "x"/],
    ];
    for (const [flags, message] of cases) {
      const r = await refusal(["sql", ...flags]);
      expect({ flags, status: r.status, code: r.code }).toEqual({ flags, status: 400, code: "INVALID_REQUEST" });
      expect(r.message).toMatch(/^the database refused the statement: /);
      expect(r.message).toMatch(message);
    }
    const ok = await runAdminCommand(app.db, ["sql", "--query", "SELECT $1::int AS n", "--param", "7"]);
    expect(ok.result).toEqual({ rows: [{ n: 7 }] });
  }, 60_000);
});

describe("admin CLI feeds refresh when a feed's source fails", () => {
  it("prints each feed's outcome and exits 1, so a scheduled `feeds refresh` notices; a refresh that works exits 0", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "svc-cli-feeds-"));
    const feeds = await startFeedServer({ "/tor": { status: 500, body: "down" } });
    try {
      const env = { SERVICE_DATA_DIR: dir, SERVICE_FEED_TOR_EXITS_URL: `${feeds.url}/tor` };
      const failed = await cli(["feeds", "refresh", "--feed", "tor-exits", "--json"], env);
      expect(failed.code).toBe(1);
      expect(JSON.parse(failed.stdout)).toMatchObject([
        { name: "tor-exits", ok: false, error: expect.stringContaining("HTTP 500") },
      ]);
      expect(failed.stderr).toContain("tor-exits");

      feeds.set("/tor", { body: "185.220.101.1\n185.220.101.2\n" });
      const worked = await cli(["feeds", "refresh", "--feed", "tor-exits", "--json"], env);
      expect({ code: worked.code, stderr: worked.stderr }).toEqual({ code: 0, stderr: "" });
      expect(JSON.parse(worked.stdout)).toMatchObject([{ name: "tor-exits", ok: true, count: 2 }]);
    } finally {
      await feeds.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("clears the feed's LAST REFRESH FAILED in feeds status once a feeds refresh of it works", async () => {
    // After the scheduled refresh of tor-exits failed, fixing its source and running `feeds refresh --feed tor-exits`
    // (exit 0, "refreshed") still left `feeds status` saying "LAST REFRESH FAILED" with the old error, and the public
    // feed status its last_error, until the next scheduled run (an hour for Tor).
    const app = await createTestApp();
    const feeds = await startFeedServer({ "/tor": { status: 500, body: "down" } });
    const saved = process.env.SERVICE_FEED_TOR_EXITS_URL;
    process.env.SERVICE_FEED_TOR_EXITS_URL = `${feeds.url}/tor`;
    try {
      const { feedRefreshTasks } = await import("../../server/feeds/schedule");
      const { runIfDue } = await import("../../server/queue/scheduled");
      const task = feedRefreshTasks().find((t) => t.name === "feed.refresh:tor-exits")!;
      // Due now: the shipped snapshot is older than an hour.
      expect(await runIfDue(app.db, task, new Date(Date.now() + 400 * 86_400_000))).toBe("failed");
      const tor = async () =>
        ((await runAdminCommand(app.db, ["feeds", "status"])).result as { name: string; refresh: object }[]).find(
          (r) => r.name === "tor-exits",
        )!.refresh;
      expect(await tor()).toMatchObject({ lastError: expect.stringContaining("HTTP 500"), failures: 1 });

      feeds.set("/tor", { body: "185.220.101.1\n185.220.101.2\n" });
      const r = await runAdminCommand(app.db, ["feeds", "refresh", "--feed", "tor-exits"]);
      expect(r.failed).toBeUndefined();
      expect(await tor()).toMatchObject({ lastError: null, lastFailedAt: null, failures: 0 });
      expect((await runAdminCommand(app.db, ["feeds", "status"])).text).not.toMatch(/tor-exits.*LAST REFRESH FAILED/);
    } finally {
      if (saved === undefined) delete process.env.SERVICE_FEED_TOR_EXITS_URL;
      else process.env.SERVICE_FEED_TOR_EXITS_URL = saved;
      await feeds.close();
    }
  }, 120_000);
});
