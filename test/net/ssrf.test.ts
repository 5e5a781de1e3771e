import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../server/errors";
import { assertPublicTargetOrThrow, safeFetch, vetTarget } from "../../server/net";
import { startFakeDnsServer, type FakeDnsServer } from "../fakes/dns-server";
import { startHttpServer, type FakeHttpServer } from "../fakes/http-server";

let dns: FakeDnsServer;
let site: FakeHttpServer;
const saved = { ...process.env };

beforeAll(async () => {
  dns = await startFakeDnsServer({
    records: {
      "internal.example.com": [{ type: "A", data: "10.0.0.5" }],
      "mixed.example.com": [
        { type: "A", data: "93.184.216.34" },
        { type: "A", data: "127.0.0.1" },
      ],
      "v6loop.example.com": [{ type: "AAAA", data: "::1" }],
      "mapped.example.com": [{ type: "AAAA", data: "::ffff:169.254.169.254" }],
      "alias.example.com": [{ type: "CNAME", data: "internal.example.com" }],
      "public.example.com": [{ type: "A", data: "93.184.216.34" }],
      "loop.test.example": [{ type: "A", data: "127.0.0.1" }],
      "linklocal.example.com": [{ type: "A", data: "169.254.10.10" }],
    },
  });
  site = await startHttpServer({
    routes: {
      "/": { body: "hello" },
      "/to-metadata": { status: 302, headers: { location: "http://169.254.169.254/latest/meta-data/" } },
      "/to-linklocal-name": { status: 301, headers: { location: "http://linklocal.example.com/" } },
      "/to-local": { status: 302, headers: { location: "/" } },
      "/loop": { status: 302, headers: { location: "/loop" } },
      "/to-ftp": { status: 302, headers: { location: "ftp://example.com/" } },
    },
  });
});

afterAll(async () => {
  await dns.close();
  await site.close();
});

afterEach(() => {
  for (const k of [
    "SERVICE_ALLOW_PRIVATE_TARGETS",
    "SERVICE_ALLOW_PRIVATE_TARGETS_IN_PRODUCTION",
    "SERVICE_TARGET_RESOLVER",
    "SERVICE_DNS_SERVERS",
    "SERVICE_ENV",
  ]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

function useFakeDns() {
  process.env.SERVICE_TARGET_RESOLVER = "configured";
  process.env.SERVICE_DNS_SERVERS = dns.address;
}

async function refusal(target: string): Promise<AppError> {
  const err = await assertPublicTargetOrThrow(target).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, `${target} must be refused`).toBeInstanceOf(AppError);
  return err as AppError;
}

describe("SSRF guard refuses", () => {
  it.each([
    ["loopback dotted quad", "127.0.0.1"],
    ["loopback elsewhere in 127/8", "127.53.1.9"],
    ["hex and short form", "0x7f.1"],
    ["decimal integer", "2130706433"],
    ["octal integer", "017700000001"],
    ["octal dotted", "0177.0.0.01"],
    ["IPv6 loopback in brackets", "[::1]"],
    ["IPv4-mapped IPv6 loopback", "[::ffff:127.0.0.1]"],
    ["IPv4-mapped IPv6 in hex", "[::ffff:7f00:1]"],
    ["cloud metadata address", "169.254.169.254"],
    ["cloud metadata in decimal", "2852039166"],
    ["AWS IPv6 metadata", "[fd00:ec2::254]"],
    ["GCP metadata host name", "metadata.google.internal"],
    ["bare metadata name", "metadata"],
    ["RFC 1918 10/8", "10.0.0.1"],
    ["RFC 1918 172.16/12", "172.20.1.1"],
    ["RFC 1918 192.168/16", "192.168.0.1"],
    ["carrier-grade NAT 100.64/10", "100.64.0.1"],
    ["unique local fc00::/7", "[fc00::1]"],
    ["link-local fe80::", "[fe80::1]"],
    ["unspecified 0.0.0.0", "0.0.0.0"],
    ["bare 0", "0"],
    ["IPv4 multicast", "224.0.0.1"],
    ["IPv6 multicast", "[ff02::1]"],
    ["broadcast", "255.255.255.255"],
    ["reserved 240/4", "240.0.0.1"],
    ["NAT64 of a private address", "[64:ff9b::10.0.0.1]"],
    ["6to4 of a private address", "[2002:c0a8:101::1]"],
    ["localhost", "localhost"],
    ["a .localhost name", "app.localhost"],
    ["a .internal name", "db.corp.internal"],
    ["a URL to loopback with a port", "http://127.0.0.1:8080/admin"],
    ["a URL with a hex host", "http://0x7f000001/"],
    ["a URL with an IPv6 mapped host", "http://[::ffff:10.0.0.1]/"],
  ])("%s (%s)", async (_label, target) => {
    const err = await refusal(target);
    expect(err.appCode).toBe("TARGET_FORBIDDEN");
    expect(err.status).toBe(400);
  });

  it.each([
    // One sentence ("resolves to 10.0.0.5, which is a private address"), not "resolves to 10.0.0.5 is a private address".
    [
      "a name resolving to a private address",
      "internal.example.com",
      /internal\.example\.com resolves to 10\.0\.0\.5, which is a private address in 10\.0\.0\.0\/8 \(/,
    ],
    ["a name with one private address among public ones", "mixed.example.com", /resolves to 127\.0\.0\.1/],
    ["a name resolving to IPv6 loopback", "v6loop.example.com", /resolves to ::1, which is a loopback address/],
    ["a name resolving to mapped metadata", "mapped.example.com", /metadata|link-local/],
    ["a CNAME to a private name", "alias.example.com", /resolves to 10\.0\.0\.5/],
  ])("%s (%s)", async (_label, target, reason) => {
    useFakeDns();
    const err = await refusal(target);
    expect(err.appCode).toBe("TARGET_FORBIDDEN");
    expect(err.message).toMatch(reason);
  });

  it("the unspecified address is 'an unspecified address'", async () => {
    expect((await refusal("0.0.0.0")).message).toContain("0.0.0.0 is an unspecified address");
  });

  it("a redirect to the metadata address, mid-flight, without requesting it", async () => {
    process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1"; // the first hop is our loopback test server
    const res = await safeFetch(`${site.url}/to-metadata`);
    expect(res.outcome).toBe("blocked_redirect");
    expect(res.blockedRedirect?.url).toBe("http://169.254.169.254/latest/meta-data/");
    expect(res.blockedRedirect?.reason).toMatch(/metadata/);
    expect(res.hops).toHaveLength(1);
    expect(res.status).toBe(302);
  });

  it("a redirect to a name whose DNS answer is link-local, mid-flight, without requesting it", async () => {
    useFakeDns();
    process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1"; // opens loopback for the first hop; link-local stays closed
    const before = site.requests.length;
    const res = await safeFetch(`${site.url}/to-linklocal-name`);
    expect(res.outcome).toBe("blocked_redirect");
    expect(res.blockedRedirect?.reason).toMatch(/linklocal\.example\.com resolves to 169\.254\.10\.10/);
    expect(site.requests.length - before).toBe(1);
  });

  it("a redirect to a non-http scheme", async () => {
    process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1";
    const res = await safeFetch(`${site.url}/to-ftp`);
    expect(res.outcome).toBe("blocked_redirect");
    expect(res.blockedRedirect?.reason).toMatch(/not an http/);
  });

  it("an endless redirect loop after the configured number of hops", async () => {
    process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1";
    const res = await safeFetch(`${site.url}/loop`, { maxRedirects: 3 });
    expect(res.outcome).toBe("too_many_redirects");
    expect(res.hops).toHaveLength(4);
  });

  it("an HTTP request to a port browsers refuse", async () => {
    const err = await safeFetch("http://93.184.216.34:25/").catch((e: unknown) => e);
    expect((err as AppError).appCode).toBe("TARGET_FORBIDDEN");
  });

  it("URLs with credentials or other schemes", async () => {
    for (const u of ["http://user:pw@example.com/", "file:///etc/passwd", "gopher://127.0.0.1:25/"]) {
      await expect(safeFetch(u)).rejects.toMatchObject({ appCode: "TARGET_FORBIDDEN" });
    }
  });
});

describe("private targets", () => {
  it("loopback is refused unless SERVICE_ALLOW_PRIVATE_TARGETS is set, and then it is reached", async () => {
    await expect(safeFetch(`${site.url}/`)).rejects.toMatchObject({ appCode: "TARGET_FORBIDDEN" });
    process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1";
    const res = await safeFetch(`${site.url}/`);
    expect(res.outcome).toBe("ok");
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe("hello");
  });

  it("the allowance is ignored in production unless explicitly confirmed", async () => {
    process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1";
    process.env.SERVICE_ENV = "production";
    await expect(assertPublicTargetOrThrow("127.0.0.1")).rejects.toMatchObject({ appCode: "TARGET_FORBIDDEN" });
    process.env.SERVICE_ALLOW_PRIVATE_TARGETS_IN_PRODUCTION = "1";
    await expect(assertPublicTargetOrThrow("127.0.0.1")).resolves.toBeUndefined();
  });

  it("metadata stays refused even when private targets are allowed", async () => {
    process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1";
    await expect(assertPublicTargetOrThrow("169.254.169.254")).rejects.toMatchObject({ appCode: "TARGET_FORBIDDEN" });
    await expect(assertPublicTargetOrThrow("metadata.google.internal")).rejects.toMatchObject({
      appCode: "TARGET_FORBIDDEN",
    });
    await expect(assertPublicTargetOrThrow("[fd00:ec2::254]")).rejects.toMatchObject({ appCode: "TARGET_FORBIDDEN" });
  });

  it("connects to the vetted address, not a second resolution, and keeps the name in the Host header", async () => {
    useFakeDns();
    process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1";
    const res = await safeFetch(`http://loop.test.example:${site.port}/`);
    expect(res.status).toBe(200);
    expect(res.address).toBe("127.0.0.1");
    expect(site.requests.at(-1)?.host).toBe(`loop.test.example:${site.port}`);
    // One A and one AAAA query: the connection did not resolve the name again.
    expect(dns.queries.filter((q) => q.name === "loop.test.example")).toHaveLength(2);
  });
});

describe("public targets", () => {
  it("a public address literal passes the pre-admission check", async () => {
    await expect(assertPublicTargetOrThrow("93.184.216.34")).resolves.toBeUndefined();
    await expect(assertPublicTargetOrThrow("https://[2606:4700::1111]/")).resolves.toBeUndefined();
  });

  it("a public name passes, and a name that does not resolve is left to the lookup", async () => {
    useFakeDns();
    await expect(assertPublicTargetOrThrow("public.example.com")).resolves.toBeUndefined();
    await expect(assertPublicTargetOrThrow("nothing.example.com")).resolves.toBeUndefined();
    const vet = await vetTarget("nothing.example.com");
    expect(vet).toMatchObject({ kind: "unresolved", notFound: true });
  });

  it("garbage input is an input error, not a forbidden target", async () => {
    await expect(assertPublicTargetOrThrow("not a host")).rejects.toMatchObject({ appCode: "INVALID_REQUEST" });
  });
});

describe("safeFetch with a body", () => {
  it("POSTs the body and turns a 302 into a GET without it", async () => {
    process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1";
    const received: { method: string; body: string }[] = [];
    const hook = await startHttpServer({
      routes: {
        "/hook": (req, res) => {
          let b = "";
          req.on("data", (c) => (b += c));
          req.on("end", () => {
            received.push({ method: req.method ?? "", body: b });
            res.writeHead(302, { location: "/done" }).end();
          });
        },
        "/done": (req, res) => {
          received.push({ method: req.method ?? "", body: "" });
          res.writeHead(204).end();
        },
      },
    });
    try {
      const res = await safeFetch(`${hook.url}/hook`, {
        method: "POST",
        body: '{"a":1}',
        headers: { "content-type": "application/json" },
      });
      expect(res.status).toBe(204);
      expect(received).toEqual([
        { method: "POST", body: '{"a":1}' },
        { method: "GET", body: "" },
      ]);
    } finally {
      await hook.close();
    }
  });
});
