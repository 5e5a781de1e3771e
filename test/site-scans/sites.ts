// Local websites that produce each grade: one HTTPS and one HTTP server on 127.0.0.1 answering by Host header,
// a fake DNS server pointing every site name at 127.0.0.1 (with CAA, SPF, DMARC and DNSSEC as each site needs),
// and a test CA. Table: what each site sends and the points each test should give.
import type http from "node:http";
import { startFakeDnsServer, type FakeDnsServer, type FakeRecord } from "../fakes/dns-server";
import { startHttpServer, type FakeHttpServer } from "../fakes/http-server";
import { createTestPki } from "../fakes/tls-server";

export type Site = {
  name: string;
  /** Headers of the HTTPS (or, without https, the HTTP) answer of "/". */
  headers: Record<string, string | string[]>;
  body?: string;
  /** http:// redirects to https:// on the same host (else the HTTP server serves the page itself). */
  redirectToHttps?: boolean;
  https?: boolean;
  caa?: boolean;
  signed?: boolean;
  mail?: "enforced" | "none";
  /** A certificate of its own on a separate HTTPS server: expired, self-signed, or issued for another name. */
  cert?: BadCert;
};

export type BadCert = "expired" | "self-signed" | "wrong-name";

const GOOD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'";

export const SITES: Site[] = [
  {
    name: "aplus.test",
    redirectToHttps: true,
    https: true,
    caa: true,
    signed: true,
    mail: "enforced",
    headers: {
      "strict-transport-security": "max-age=63072000; includeSubDomains; preload",
      "content-security-policy": GOOD_CSP,
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "cross-origin-opener-policy": "same-origin",
      "cross-origin-resource-policy": "same-site",
      "set-cookie": [
        "__Host-sid=abc; Path=/; Secure; HttpOnly; SameSite=Lax",
        "theme=dark; Path=/; Secure; SameSite=Strict; Expires=Wed, 21 Oct 2037 07:28:00 GMT",
      ],
      "content-type": "text/html",
    },
    body: '<html><script src="/app.js"></script><script src="https://cdn.example/lib.js" integrity="sha384-abc" crossorigin="anonymous"></script></html>',
  },
  {
    name: "a.test",
    redirectToHttps: true,
    https: true,
    mail: "enforced",
    headers: {
      "strict-transport-security": "max-age=86400",
      "content-security-policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; object-src 'none'",
      "x-frame-options": "DENY",
      "x-content-type-options": "nosniff",
      "content-type": "text/html",
    },
    body: "<html><p>hello</p></html>",
  },
  {
    name: "b.test",
    redirectToHttps: true,
    https: true,
    mail: "enforced",
    headers: {
      "strict-transport-security": "max-age=31536000",
      "x-frame-options": "SAMEORIGIN",
      "x-content-type-options": "nosniff",
      "content-type": "text/plain",
    },
  },
  {
    name: "c.test",
    redirectToHttps: true,
    https: true,
    mail: "enforced",
    headers: {
      "strict-transport-security": "max-age=31536000",
      "x-content-type-options": "nosniff",
      "content-type": "text/plain",
    },
  },
  {
    name: "d.test",
    redirectToHttps: true,
    https: true,
    mail: "enforced",
    headers: { "content-type": "text/plain" },
  },
  {
    name: "f.test",
    https: false,
    mail: "none",
    headers: {
      "set-cookie": "sessionid=s3cret; Path=/",
      "access-control-allow-origin": "*",
      "access-control-allow-credentials": "true",
      "content-type": "text/html",
    },
    body: '<html><script src="http://cdn.example/lib.js"></script></html>',
  },
];

/** b.test's headers behind each bad certificate: the twin of b.test (75, B, tls-valid) but for the certificate. */
const B_HEADERS = {
  "strict-transport-security": "max-age=31536000",
  "x-frame-options": "SAMEORIGIN",
  "x-content-type-options": "nosniff",
  "content-type": "text/plain",
};
export const BAD_CERT_SITES: Record<BadCert, string> = {
  expired: "expired.test",
  "self-signed": "selfsigned.test",
  "wrong-name": "wrongname.test",
};
for (const [cert, name] of Object.entries(BAD_CERT_SITES) as [BadCert, string][]) {
  SITES.push({ name, cert, redirectToHttps: true, https: true, mail: "enforced", headers: { ...B_HEADERS } });
}

/** Expected grade, score and the points of the tests that decide it. */
export const EXPECTED: Record<string, { grade: string; score: number; points: Record<string, number> }> = {
  "aplus.test": {
    grade: "A+",
    score: 150,
    points: {
      redirection: 0,
      "strict-transport-security": 5,
      "content-security-policy": 10,
      "x-frame-options": 5,
      "referrer-policy": 5,
      cookies: 5,
      "subresource-integrity": 5,
      "cross-origin-opener-policy": 5,
      tls: 0,
      "dns-caa": 5,
      dnssec: 5,
      "email-spf": 0,
      "email-dmarc": 0,
    },
  },
  "a.test": {
    grade: "A",
    score: 90,
    points: {
      "strict-transport-security": -10,
      "content-security-policy": 0,
      "x-frame-options": 0,
      "referrer-policy": 0,
      cookies: 0,
      "subresource-integrity": 0,
    },
  },
  "b.test": {
    grade: "B",
    score: 75,
    points: { "content-security-policy": -25, "x-frame-options": 0, "x-content-type-options": 0 },
  },
  "c.test": { grade: "C", score: 55, points: { "content-security-policy": -25, "x-frame-options": -20 } },
  "d.test": {
    grade: "D",
    score: 30,
    points: {
      "strict-transport-security": -20,
      "content-security-policy": -25,
      "x-frame-options": -20,
      "x-content-type-options": -5,
    },
  },
  "f.test": {
    grade: "F",
    score: 0,
    points: {
      redirection: -20,
      "strict-transport-security": -20,
      cookies: -40,
      "cross-origin-resource-sharing": -50,
      "subresource-integrity": -50,
      tls: 0,
      "email-spf": -5,
      "email-dmarc": -5,
    },
  },
};

export type SiteWorld = {
  dns: FakeDnsServer;
  https: FakeHttpServer;
  http: FakeHttpServer;
  caFile: string;
  /** The HTTPS port a site is served on (its own server for a bad certificate). */
  httpsPortOf(name: string): number;
  startUrl(name: string): string;
  close(): Promise<void>;
};

function send(site: Site | undefined, res: http.ServerResponse) {
  if (!site) return void res.writeHead(404).end("no such site");
  res.writeHead(200, site.headers as http.OutgoingHttpHeaders).end(site.body ?? "ok");
}

export async function startSiteWorld(): Promise<SiteWorld> {
  const pki = createTestPki();
  const leaf = pki.issue({ names: SITES.filter((s) => !s.cert).map((s) => s.name), days: 90 });
  const byHost = (req: http.IncomingMessage) => SITES.find((s) => s.name === (req.headers.host ?? "").split(":")[0]);
  const https = await startHttpServer({ tls: leaf, routes: { "/": (req, res) => send(byHost(req), res) } });
  // Bad certificates, made now from the test CA (or none): each on its own HTTPS server.
  const DAY = 86_400_000;
  const badLeaf = (site: Site) =>
    site.cert === "expired"
      ? pki.issue({
          names: [site.name],
          notBefore: new Date(Date.now() - 90 * DAY),
          notAfter: new Date(Date.now() - 2 * DAY),
        })
      : site.cert === "self-signed"
        ? pki.issue({ names: [site.name], selfSigned: true })
        : pki.issue({ names: ["someone-else.test"] });
  const own = new Map<string, FakeHttpServer>();
  for (const site of SITES.filter((s) => s.cert)) {
    own.set(
      site.name,
      await startHttpServer({ tls: badLeaf(site), routes: { "/": (req, res) => send(byHost(req), res) } }),
    );
  }
  const httpsPortOf = (name: string) => own.get(name)?.port ?? https.port;
  const http = await startHttpServer({
    routes: {
      "/": (req, res) => {
        const site = byHost(req);
        if (site?.redirectToHttps)
          return void res.writeHead(301, { location: `https://${site.name}:${httpsPortOf(site.name)}/` }).end();
        send(site, res);
      },
    },
  });
  const records: Record<string, FakeRecord[]> = {};
  for (const s of SITES) {
    records[s.name] = [
      { type: "A", data: "127.0.0.1" },
      ...(s.caa ? [{ type: "CAA" as const, data: { flags: 0, tag: "issue", value: "letsencrypt.org" } }] : []),
    ];
    if (s.mail === "enforced") {
      records[s.name]!.push({ type: "TXT", data: ["v=spf1 -all"] });
      records[`_dmarc.${s.name}`] = [{ type: "TXT", data: ["v=DMARC1; p=reject"] }];
    }
  }
  const dns = await startFakeDnsServer({ records });
  for (const s of SITES) if (s.signed) dns.signedZones.add(s.name);
  return {
    dns,
    https,
    http,
    caFile: pki.caFile,
    httpsPortOf,
    startUrl: (name) => `http://${name}:${http.port}/`,
    close: async () =>
      void (await Promise.all([dns.close(), https.close(), http.close(), ...[...own.values()].map((s) => s.close())])),
  };
}
