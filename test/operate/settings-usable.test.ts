// Settings whose values the server could not use were accepted at start: a resolver that is not an address, a probe
// location or RDAP server whose URL is not http(s), a feed source that is not a URL, a CA file that does not exist.
// Each is refused by the settings check (which stops the server at start, test/operate/invalid-setting-exit.test.ts),
// naming the variable and what it takes; what README documents is still accepted.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { configurationProblems } from "../../server/startup/validate";

const dir = mkdtempSync(path.join(tmpdir(), "settings-usable-"));
const caFile = path.join(dir, "ca.pem");
writeFileSync(caFile, "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
const notPem = path.join(dir, "notes.txt");
writeFileSync(notPem, "not a certificate\n");

const touched = new Set<string>();
afterEach(() => {
  for (const name of touched) delete process.env[name];
  touched.clear();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function problemsWith(env: Record<string, string>): string[] {
  for (const [name, value] of Object.entries(env)) {
    touched.add(name);
    process.env[name] = value;
  }
  try {
    return configurationProblems();
  } finally {
    for (const name of touched) delete process.env[name];
    touched.clear();
  }
}

describe("start-up's check of settings the server could not use", () => {
  it("refuses each, in one line naming the variable and what it takes", () => {
    for (const [name, value, says] of [
      [
        "SERVICE_DNS_SERVERS",
        "not-an-ip",
        'SERVICE_DNS_SERVERS="not-an-ip" is invalid: "not-an-ip" is not a resolver address',
      ],
      [
        "SERVICE_DNS_SERVERS",
        "192.0.2.53, 127.0.0.1:99999",
        'SERVICE_DNS_SERVERS="192.0.2.53, 127.0.0.1:99999" is invalid: "127.0.0.1:99999" is not a resolver address',
      ],
      [
        "SERVICE_DNSBL_DNS_SERVERS",
        "dns.example",
        'SERVICE_DNSBL_DNS_SERVERS="dns.example" is invalid: "dns.example" is not a resolver address',
      ],
      [
        "SERVICE_PROBE_LOCATIONS",
        "us=ftp://x",
        'SERVICE_PROBE_LOCATIONS="us=ftp://x" is invalid: "us=ftp://x" is not a probe location',
      ],
      [
        "SERVICE_PROBE_LOCATIONS",
        "local,https://probe.example/probe",
        'SERVICE_PROBE_LOCATIONS="local,https://probe.example/probe" is invalid: "https://probe.example/probe" is not a probe location',
      ],
      ["SERVICE_RDAP_SERVERS", "foo", 'SERVICE_RDAP_SERVERS="foo" is invalid: "foo" is not an RDAP server'],
      [
        "SERVICE_RDAP_SERVERS",
        "arin=rdap.arin.net",
        'SERVICE_RDAP_SERVERS="arin=rdap.arin.net" is invalid: "arin=rdap.arin.net" is not an RDAP server',
      ],
      [
        "SERVICE_FEED_TOR_EXITS_URL",
        "notaurl",
        'SERVICE_FEED_TOR_EXITS_URL="notaurl" is invalid: it must be an http(s) URL',
      ],
      [
        "SERVICE_FEED_KEV_URL",
        "ftp://cisa.example/kev.json",
        'SERVICE_FEED_KEV_URL="ftp://cisa.example/kev.json" is invalid: it must be an http(s) URL',
      ],
      [
        "SERVICE_EXTRA_CA_FILE",
        "/nonexistent",
        'SERVICE_EXTRA_CA_FILE="/nonexistent" is invalid: it must be the path of a readable file of PEM certificates',
      ],
      [
        "SERVICE_EXTRA_CA_FILE",
        notPem,
        `SERVICE_EXTRA_CA_FILE=${JSON.stringify(notPem)} is invalid: it must be the path of a readable file of PEM certificates`,
      ],
      [
        "SERVICE_EXTRA_CA_FILE",
        dir,
        `SERVICE_EXTRA_CA_FILE=${JSON.stringify(dir)} is invalid: it must be the path of a readable file of PEM certificates`,
      ],
    ] as const) {
      const problems = problemsWith({ [name]: value });
      expect(problems.length, `${name}=${value}: ${problems.join(" | ")}`).toBe(1);
      expect(problems[0], `${name}=${value}`).toContain(says);
      expect(problems[0]).not.toContain("\n");
    }
  });

  it("accepts what README documents", () => {
    for (const env of <Record<string, string>[]>[
      { SERVICE_DNS_SERVERS: "192.0.2.53, 127.0.0.1:5353,[2001:db8::53]:53, 2001:db8::2" },
      { SERVICE_DNSBL_DNS_SERVERS: "127.0.0.1:5300" },
      { SERVICE_PROBE_LOCATIONS: "local" },
      { SERVICE_PROBE_LOCATIONS: "local=frankfurt, us=https://probe.example/probe,eu=http://127.0.0.1:9/probe" },
      { SERVICE_RDAP_SERVERS: "arin=https://rdap.example/, com=http://127.0.0.1:9/rdap,xn--p1ai=https://rdap.example" },
      { SERVICE_FEED_TOR_EXITS_URL: "off" },
      { SERVICE_FEED_TOR_EXITS_URL: "https://check.torproject.org/exit-addresses" },
      { SERVICE_FEED_SCANNERS_MISP_URL: "http://127.0.0.1:9/censys http://127.0.0.1:9/stretchoid" },
      { SERVICE_FEED_DISPOSABLE_DOMAINS_URL: "OFF" },
      { SERVICE_EXTRA_CA_FILE: caFile },
      { SERVICE_EXTRA_CA_FILE: "" },
    ]) {
      expect({ env, problems: problemsWith(env) }).toEqual({ env, problems: [] });
    }
  });
});

describe("start-up's check of the metrics listener's port", () => {
  // The server opened its metrics listener on its own port first, then said "cannot listen on 127.0.0.1:3312: the
  // port is already in use (set PORT or HOST)" about itself (found walking README's settings from a fresh clone).
  it("refuses the server's own port, naming both settings", () => {
    expect(problemsWith({ PORT: "3312", SERVICE_METRICS_PORT: "3312" })).toEqual([
      "SERVICE_METRICS_PORT=3312 is the server's own port (PORT): give the metrics listener another port, or leave it unset to serve /metrics on the main port.",
    ]);
    expect(
      problemsWith({ PORT: "3312", HOST: "0.0.0.0", SERVICE_METRICS_PORT: "3312", SERVICE_METRICS_HOST: "127.0.0.2" }),
    ).toHaveLength(1);
  });

  it("refuses it on another spelling of the same address (localhost, IPv6 forms, a mapped IPv4 address)", () => {
    // Compared as text, each of these started the server, which then failed on its own metrics listener.
    for (const [host, metricsHost] of [
      ["localhost", "127.0.0.1"],
      ["127.0.0.1", "LOCALHOST"],
      ["localhost", "::1"],
      ["::1", "0:0:0:0:0:0:0:1"],
      ["[::1]", "::1"],
      ["::ffff:127.0.0.1", "127.0.0.1"],
      ["::", "127.0.0.1"],
      ["0:0:0:0:0:0:0:0", "10.0.0.5"],
      // Other spellings of the wildcard "::" and of 0.0.0.0: tested before the canonical form, none was a wildcard.
      ["::0", "127.0.0.1"],
      ["0::", "127.0.0.1"],
      ["[::0]", "::1"],
      ["127.0.0.1", "0::0"],
      ["::ffff:0.0.0.0", "127.0.0.1"],
      ["::ffff:0:0", "10.0.0.5"],
    ]) {
      expect({
        host,
        metricsHost,
        problems: problemsWith({
          PORT: "3312",
          HOST: host!,
          SERVICE_METRICS_PORT: "3312",
          SERVICE_METRICS_HOST: metricsHost!,
        }),
      }).toMatchObject({ problems: [expect.stringContaining("is the server's own port (PORT)")] });
    }
  });

  it("takes another port, or the same port on another address", () => {
    expect(problemsWith({ PORT: "3312", SERVICE_METRICS_PORT: "3313" })).toEqual([]);
    expect(
      problemsWith({
        PORT: "3312",
        HOST: "127.0.0.1",
        SERVICE_METRICS_PORT: "3312",
        SERVICE_METRICS_HOST: "127.0.0.2",
      }),
    ).toEqual([]);
    expect(problemsWith({ PORT: "0", SERVICE_METRICS_PORT: "0" })).toEqual([]);
    for (const [host, metricsHost] of [
      ["localhost", "127.0.0.2"],
      ["::1", "127.0.0.1"],
      ["10.0.0.5", "127.0.0.1"],
    ])
      expect(
        problemsWith({ PORT: "3312", HOST: host!, SERVICE_METRICS_PORT: "3312", SERVICE_METRICS_HOST: metricsHost! }),
      ).toEqual([]);
  });
});
