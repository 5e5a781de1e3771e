// The settings registry (issue 23, item 2): README's table is the generated one, nothing in server/ or app/ but the
// settings module reads process.env, and an invalid value is refused naming the variable and what it accepts.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigurationError, SETTINGS, setting, settingOf, validateSettings } from "../../server/env";
import { withSettingsTable } from "../../server/env/table";
import { scheduledFeedRefreshEnabled } from "../../server/feeds/config";
import { targetResolverKind } from "../../server/net/config";
import { maxWebhooksPerWorkspace, workerEnabled } from "../../server/webhooks/config";

const touched = new Set<string>();
function setEnv(name: string, value: string) {
  touched.add(name);
  process.env[name] = value;
}
afterEach(() => {
  for (const name of touched) delete process.env[name];
  touched.clear();
});

/** Files that mention process.env without reading it, each with why. */
const NOT_READS: Record<string, string> = {
  // The embed guide shows the customer's own server code, which reads the customer's key from its environment.
  "app/dashboard/device/EmbedGuide.tsx": "a code sample shown to customers",
};

/** Files under `roots` (relative to `base`) that contain process.env, outside the settings module and generated code. */
function environmentReaders(base: string, roots: string[]): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) return name === "generated" || name === "node_modules" ? [] : walk(full);
      return /\.(ts|tsx|js|mjs)$/.test(name) ? [full] : [];
    });
  return roots
    .flatMap((root) => walk(path.join(base, root)))
    .map((file) => path.relative(base, file).split(path.sep).join("/"))
    .filter((rel) => rel !== "server/env.ts" && !rel.startsWith("server/env/"))
    .filter((rel) => readFileSync(path.join(base, rel), "utf8").includes("process.env"))
    .sort();
}

describe("settings registry", () => {
  it("README.md's settings table is the one generated from the registry (npm run settings:table)", () => {
    const readme = readFileSync(path.join(process.cwd(), "README.md"), "utf8");
    expect(readme, "README.md's settings table is stale: run `npm run settings:table`").toBe(withSettingsTable(readme));
  });

  it("no file in server/ or app/ but the settings module reads process.env", () => {
    const found = environmentReaders(process.cwd(), ["server", "app"]);
    expect(found.filter((f) => !(f in NOT_READS))).toEqual([]);
    // A listed file mentions it once, in its sample; a second mention would be a read.
    for (const file of Object.keys(NOT_READS))
      expect(readFileSync(path.join(process.cwd(), file), "utf8").split("process.env").length - 1, file).toBe(1);
  });

  it("the scan sees a read of process.env (the check can fail)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "settings-"));
    try {
      for (const sub of ["server/env", "server/bulk", "server/db/generated", "app"])
        mkdirSync(path.join(dir, sub), { recursive: true });
      writeFileSync(path.join(dir, "server/env.ts"), "export const a = process.env.A;\n");
      writeFileSync(path.join(dir, "server/env/source.ts"), "export const b = process.env.B;\n");
      writeFileSync(path.join(dir, "server/db/generated/client.ts"), "// process.env.DATABASE_URL\n");
      writeFileSync(path.join(dir, "server/bulk/config.ts"), 'export const c = process.env["C"];\n');
      writeFileSync(path.join(dir, "app/page.tsx"), "export const d = process.env.NEXT_PUBLIC_D;\n");
      expect(environmentReaders(dir, ["server", "app"])).toEqual(["app/page.tsx", "server/bulk/config.ts"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("every setting has a meaning, a default as shown, what it accepts and a group", () => {
    for (const [name, entry] of Object.entries(SETTINGS)) {
      expect(entry.meaning.length, name).toBeGreaterThan(10);
      expect(entry.shown, name).not.toBe("");
      expect(entry.accepts, name).not.toBe("");
      expect(entry.group, name).not.toBe("");
    }
  });

  it("an invalid number is refused with ConfigurationError naming the variable and what it accepts", () => {
    setEnv("SERVICE_WEBHOOK_LIMIT", "many");
    expect(() => maxWebhooksPerWorkspace()).toThrow(ConfigurationError);
    expect(() => maxWebhooksPerWorkspace()).toThrow(
      'SERVICE_WEBHOOK_LIMIT="many" is invalid: it must be a whole number from 1 to 1000 (unset means 20).',
    );
    expect(validateSettings()).toEqual([expect.stringContaining('SERVICE_WEBHOOK_LIMIT="many" is invalid')]);
  });

  it("DATABASE_URL that is not a postgresql:// URL is refused naming the variable, never its value", () => {
    const saved = process.env.DATABASE_URL;
    try {
      for (const good of [
        "postgresql://u@127.0.0.1:5432/db",
        "postgres://u:p@db/app?schema=s",
        "socket:/var/run/postgresql?db=app",
        "/var/run/postgresql app",
        "",
      ]) {
        process.env.DATABASE_URL = good;
        expect(validateSettings()).toEqual([]);
      }
      process.env.DATABASE_URL = "garbage-secret-text";
      expect(() => setting("DATABASE_URL")).toThrow(ConfigurationError);
      const problems = validateSettings();
      expect(problems).toEqual([
        "DATABASE_URL is invalid: it must be a postgresql:// (or postgres://) URL, or a socket: address (the value is not shown).",
      ]);
    } finally {
      if (saved === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved;
    }
  });

  it("SERVICE_SMTP_URL that is not an smtp:// or smtps:// URL is refused at start, never its value shown", () => {
    // `smtp.example.com:587` or `smtp//user:pass@host` started the server with email alerts silently off (every
    // monitor answering email_alerts.available: false), which an operator learns only when an alert never comes.
    for (const good of ["smtp://user:pass@mail.example.com:587", "smtps://mail.example.com:465", "SMTP://h", ""]) {
      setEnv("SERVICE_SMTP_URL", good);
      expect({ good, problems: validateSettings() }).toEqual({ good, problems: [] });
    }
    for (const bad of ["smtp.example.com:587", "smtp//user:s3cret@host", "https://mail.example.com", "smtp://"]) {
      setEnv("SERVICE_SMTP_URL", bad);
      expect({ bad, problems: validateSettings() }).toEqual({
        bad,
        problems: [
          "SERVICE_SMTP_URL is invalid: it must be an smtp:// or smtps:// URL with a host (the value is not shown).",
        ],
      });
    }
  });

  it("DNS blocklist zones and special-use names must be DNS names: a space-separated list is refused at start", () => {
    // SERVICE_DNSBL_IP_ZONES="zen.spamhaus.org bl.spamcop.net" (spaces, not commas) started as one zone named with a
    // space, which no query can reach: every IP target's lists came back failed, with nothing said at start.
    for (const name of ["SERVICE_DNSBL_IP_ZONES", "SERVICE_DNSBL_DOMAIN_ZONES", "SERVICE_SPECIAL_USE_NAMES"]) {
      setEnv(name, " zen.spamhaus.org, bl.spamcop.net ,home.arpa,_dmarc.example,test. ");
      expect({ name, problems: validateSettings() }).toEqual({ name, problems: [] });
      setEnv(name, "zen.spamhaus.org bl.spamcop.net,ok.example,https://dbl.example/,a..b");
      expect({ name, problems: validateSettings() }).toEqual({
        name,
        problems: [
          `${name}="zen.spamhaus.org bl.spamcop.net,ok.example,https://dbl.example/,a..b" is invalid: ` +
            '"zen.spamhaus.org bl.spamcop.net", "https://dbl.example/", "a..b" are not a DNS name.',
        ],
      });
      delete process.env[name];
    }
    // A special-use suffix may keep its leading dot (server/net/special-use.ts strips it; the review found `.test`
    // refused by the check above); a blocklist zone may not (a query under ".zen..." reaches no zone).
    setEnv("SERVICE_SPECIAL_USE_NAMES", ".test,.local,invalid");
    expect(validateSettings()).toEqual([]);
    delete process.env.SERVICE_SPECIAL_USE_NAMES;
    setEnv("SERVICE_DNSBL_IP_ZONES", ".zen.spamhaus.org");
    expect(validateSettings()).toHaveLength(1);
    delete process.env.SERVICE_DNSBL_IP_ZONES;
  });

  it("SERVICE_DB_SCHEMA must be a plain schema name, refused at start rather than waited on", () => {
    // SERVICE_DB_SCHEMA="bad schema!" went into the connections' options (-c search_path=...), which PostgreSQL
    // refuses (SQLSTATE 22023) on every connection: start-up took that for a database away and waited for it
    // forever, one error line every 30 s, instead of stopping with a line naming the setting.
    // The review of that fix: it refused names the quoted options had always carried (`my-app`, `tenant.a`).
    for (const good of ["public", "tenant_1", "T_shutdown_ab12", "s$1", "", "my-app", "tenant.a", "1abc", "café"]) {
      setEnv("SERVICE_DB_SCHEMA", good);
      expect({ good, problems: validateSettings() }).toEqual({ good, problems: [] });
    }
    for (const bad of ["bad schema!", 'x"y', "a\\b", "tab\there", "x".repeat(64), "é".repeat(32)]) {
      setEnv("SERVICE_DB_SCHEMA", bad);
      expect({ bad, problems: validateSettings() }).toEqual({
        bad,
        problems: [
          `SERVICE_DB_SCHEMA=${JSON.stringify(bad)} is invalid: it must be a schema name of at most 63 bytes ` +
            'without spaces, quotes ("), backslashes or control characters.',
        ],
      });
    }
  });

  it("a ?schema= of DATABASE_URL that is not a plain schema name is refused as SERVICE_DB_SCHEMA is", async () => {
    const { databaseSchema } = await import("../../server/db/config");
    setEnv("DATABASE_URL", "postgresql://u@127.0.0.1:5432/app?schema=tenant_1");
    expect(databaseSchema()).toBe("tenant_1");
    setEnv("DATABASE_URL", "postgresql://u@127.0.0.1:5432/app?schema=my-app");
    expect(databaseSchema()).toBe("my-app");
    setEnv("DATABASE_URL", "postgresql://u:pw@127.0.0.1:5432/app?schema=bad%20schema");
    expect(() => databaseSchema()).toThrow(ConfigurationError);
    expect(() => databaseSchema()).toThrow(
      'DATABASE_URL is invalid: its ?schema= must be a schema name of at most 63 bytes without spaces, quotes ("), backslashes or control characters (the value is not shown).',
    );
    // SERVICE_DB_SCHEMA, when set, is the one used.
    setEnv("SERVICE_DB_SCHEMA", "other");
    expect(databaseSchema()).toBe("other");
  });

  it("a flag takes 1/0, true/false, yes/no, on/off in any case, and refuses anything else naming the variable", () => {
    expect(workerEnabled()).toBe(true);
    for (const [value, on] of [
      ["0", false],
      ["off", false],
      ["False", false],
      ["1", true],
      ["YES", true],
      [" ", true],
    ] as const) {
      setEnv("SERVICE_WEBHOOK_WORKER", value);
      expect(workerEnabled(), value).toBe(on);
    }
    setEnv("SERVICE_FEED_REFRESH", "off");
    expect(scheduledFeedRefreshEnabled()).toBe(false);
    setEnv("SERVICE_SCHEDULER", "maybe");
    expect(() => setting("SERVICE_SCHEDULER")).toThrow(ConfigurationError);
    expect(() => setting("SERVICE_SCHEDULER")).toThrow(
      'SERVICE_SCHEDULER="maybe" is invalid: it must be 1 or 0 (also true/false, yes/no, on/off; unset means 1).',
    );
  });

  it("an enum takes one of its words in any case and refuses another naming the variable and the words", () => {
    expect(targetResolverKind()).toBe("system");
    setEnv("SERVICE_TARGET_RESOLVER", " Configured ");
    expect(targetResolverKind()).toBe("configured");
    setEnv("SERVICE_TARGET_RESOLVER", "dns");
    expect(() => targetResolverKind()).toThrow(
      'SERVICE_TARGET_RESOLVER="dns" is invalid: it must be one of system, configured.',
    );
    expect(validateSettings()).toEqual([expect.stringContaining("SERVICE_TARGET_RESOLVER")]);
  });

  it("a patterned setting reads one instance's variable, and start-up checks every instance that is set", () => {
    expect(settingOf("SERVICE_CAPTCHA_<PROVIDER>_VERIFY_URL", "TURNSTILE")).toBeNull();
    setEnv("SERVICE_CAPTCHA_TURNSTILE_VERIFY_URL", "http://127.0.0.1:9/verify");
    expect(settingOf("SERVICE_CAPTCHA_<PROVIDER>_VERIFY_URL", "TURNSTILE")).toBe("http://127.0.0.1:9/verify");
    setEnv("SERVICE_CAPTCHA_HCAPTCHA_VERIFY_URL", "not a url");
    expect(validateSettings()).toEqual([
      'SERVICE_CAPTCHA_HCAPTCHA_VERIFY_URL="not a url" is invalid: it must be an http(s) URL.',
    ]);
  });
});

describe("start-up's check of settings that were let through", () => {
  // Each used to start the server: the shutdown timings were read by scripts/graceful-shutdown.mjs alone (which fell
  // back to its default), the URL and contact settings took any text, an allowed origin without its scheme never
  // matched a browser's Origin (every call it was meant to allow was refused, silently), and an OpenID Connect provider named by its
  // issuer alone started a server whose sign-in page showed every visitor the operator's error.
  const problemsWith = async (env: Record<string, string>) => {
    for (const [name, value] of Object.entries(env)) setEnv(name, value);
    const { configurationProblems } = await import("../../server/startup/validate");
    return configurationProblems();
  };

  it("refuses each, naming the variable and what it accepts", async () => {
    for (const [env, says] of [
      [{ SERVICE_SHUTDOWN_GRACE_MS: "abc" }, 'SERVICE_SHUTDOWN_GRACE_MS="abc" is invalid: it must be a whole number'],
      [{ SERVICE_SHUTDOWN_DELAY_MS: "-1" }, 'SERVICE_SHUTDOWN_DELAY_MS="-1" is invalid: it must be a whole number'],
      // 0 ended every shutdown at the signal with exit 1, in-flight requests cut and the database left open.
      [
        { SERVICE_SHUTDOWN_GRACE_MS: "0" },
        'SERVICE_SHUTDOWN_GRACE_MS="0" is invalid: it must be a whole number of at least 1 (unset means 25000).',
      ],
      [
        { SERVICE_BILLING_CONTACT: "nobody" },
        'SERVICE_BILLING_CONTACT="nobody" is invalid: it must be an http(s) URL or an email address.',
      ],
      [
        { OTEL_EXPORTER_OTLP_ENDPOINT: "otel-collector:4318" },
        'OTEL_EXPORTER_OTLP_ENDPOINT="otel-collector:4318" is invalid: it must be an http(s) URL.',
      ],
      [
        { SERVICE_OIDC_ISSUER: "accounts.example.com", SERVICE_OIDC_CLIENT_ID: "id", SERVICE_OIDC_CLIENT_SECRET: "s" },
        'SERVICE_OIDC_ISSUER="accounts.example.com" is invalid: it must be an http(s) URL.',
      ],
      [
        { SERVICE_ALLOWED_ORIGINS: "https://shop.example.com, shop.example.com, https://app.example.com/checkout" },
        'SERVICE_ALLOWED_ORIGINS="https://shop.example.com, shop.example.com, https://app.example.com/checkout" is invalid: "shop.example.com", "https://app.example.com/checkout" are not an origin',
      ],
      [
        { SERVICE_OIDC_ISSUER: "https://accounts.example.com" },
        "OpenID Connect sign-in is half configured: set SERVICE_OIDC_CLIENT_ID, SERVICE_OIDC_CLIENT_SECRET as well",
      ],
    ] as const) {
      const problems = await problemsWith(env);
      expect(
        problems.some((p) => p.startsWith(says)),
        `${JSON.stringify(env)}: ${problems.join(" | ")}`,
      ).toBe(true);
      for (const name of touched) delete process.env[name];
      touched.clear();
    }
  });

  it("accepts what they are documented to take", async () => {
    for (const env of <Record<string, string>[]>[
      { SERVICE_SHUTDOWN_GRACE_MS: "1", SERVICE_SHUTDOWN_DELAY_MS: "0" },
      { SERVICE_BILLING_CONTACT: "billing@example.com" },
      { SERVICE_BILLING_CONTACT: "mailto:billing@example.com" },
      { SERVICE_BILLING_CONTACT: "https://example.com/contact" },
      { OTEL_EXPORTER_OTLP_ENDPOINT: "http://otel-collector:4318" },
      { SERVICE_ALLOWED_ORIGINS: "https://Shop.Example.com, http://127.0.0.1:8080/ https://app.example" },
      {
        SERVICE_OIDC_ISSUER: "https://accounts.example.com/",
        SERVICE_OIDC_CLIENT_ID: "id",
        SERVICE_OIDC_CLIENT_SECRET: "s",
      },
    ]) {
      expect({ env, problems: await problemsWith(env) }).toEqual({ env, problems: [] });
      for (const name of touched) delete process.env[name];
      touched.clear();
    }
  });
});
