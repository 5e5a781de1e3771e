// A local SMTP server for the alert email tests (smtp-server, MIT-0): it accepts any login over plain SMTP on
// 127.0.0.1 and keeps every message with its envelope, headers (unfolded) and body (quoted-printable soft breaks
// undone). `refuseNext(n)` answers the next n messages with a 451 temporary failure, as a busy server would.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  headers: Record<string, string>;
  subject: string;
  body: string;
  raw: string;
}

export interface FakeSmtpServer {
  /** smtp://user:pass@127.0.0.1:port, the value for SERVICE_SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  refuseNext(n: number): void;
  close(): Promise<void>;
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= and ?B?), as nodemailer writes a subject with punctuation. */
function decodeWords(v: string): string {
  return v.replace(/\?=\s+=\?/g, "?==?").replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
    enc.toUpperCase() === "B"
      ? Buffer.from(text, "base64").toString("utf8")
      : Buffer.from(
          text.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
          "latin1",
        ).toString("utf8"),
  );
}

function parse(raw: string, from: string, to: string[]): ReceivedMail {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const headers: Record<string, string> = {};
  for (const line of head.split("\r\n")) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  const body = raw
    .slice(split + 4)
    .replace(/=\r\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return { from, to, headers, subject: decodeWords(headers.subject ?? ""), body, raw };
}

export async function startSmtpServer(): Promise<FakeSmtpServer> {
  const received: ReceivedMail[] = [];
  let refusals = 0;
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth: (_auth, _session, cb) => cb(null, { user: "test" }),
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if (refusals > 0) {
          refusals--;
          const err = Object.assign(new Error("Try again later"), { responseCode: 451 });
          return cb(err);
        }
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        const to = session.envelope.rcptTo.map((r) => r.address);
        received.push(parse(Buffer.concat(chunks).toString("utf8"), from, to));
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://user:pass@127.0.0.1:${port}`,
    received,
    refuseNext: (n) => {
      refusals = n;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
