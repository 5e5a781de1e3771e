// Request bodies sent compressed on /v1 (issue 42, item 3): `Content-Encoding: gzip` (or `x-gzip`), `deflate` or
// `br`. They used to be read as if they were plain text (refused as "not valid JSON", or a lockfile scanned as
// garbage). They are decoded, and the route's byte cap applies twice: to the bytes sent and to the decoded bytes, so
// a small body that inflates to gigabytes (a zip bomb) is stopped at the cap and never held whole. Any other
// encoding is refused with a message naming the ones accepted. The plain /assess door leaves an encoded body to the
// route (server/api/rest/assess-door.ts `takesPlainDoor`).
import { promisify } from "node:util";
import zlib from "node:zlib";
import { readBodyBytes, tooLargeMessage } from "../http/respond";

type Decode = (bytes: Buffer, maxOutputLength: number) => Promise<Buffer>;

const gunzip = promisify(zlib.gunzip) as (b: Buffer, o: zlib.ZlibOptions) => Promise<Buffer>;
const inflate = promisify(zlib.inflate) as (b: Buffer, o: zlib.ZlibOptions) => Promise<Buffer>;
const inflateRaw = promisify(zlib.inflateRaw) as (b: Buffer, o: zlib.ZlibOptions) => Promise<Buffer>;
const brotli = promisify(zlib.brotliDecompress) as (b: Buffer, o: zlib.BrotliOptions) => Promise<Buffer>;

const DECODERS: Record<string, Decode> = {
  gzip: (b, maxOutputLength) => gunzip(b, { maxOutputLength }),
  "x-gzip": (b, maxOutputLength) => gunzip(b, { maxOutputLength }),
  // HTTP's deflate is the zlib format; some clients send the raw deflate stream, which is read too.
  deflate: (b, maxOutputLength) =>
    inflate(b, { maxOutputLength }).catch((err: unknown) =>
      tooLarge(err) ? Promise.reject(err) : inflateRaw(b, { maxOutputLength }),
    ),
  br: (b, maxOutputLength) => brotli(b, { maxOutputLength }),
};

/** The encodings a body may be sent in, for the docs and the refusal. */
export const ACCEPTED_ENCODINGS = ["gzip", "deflate", "br"] as const;

/** One encoding: a body encoded twice (`gzip, br`) is not a client's doing. */
const MAX_LAYERS = 1;

const tooLarge = (err: unknown) => (err as { code?: string } | null)?.code === "ERR_BUFFER_TOO_LARGE";

export type DecodedBody = { ok: true; req: Request } | { ok: false; problem: string };

/**
 * The request with its body decoded, as if it had been sent plain (without Content-Encoding and Content-Length),
 * or the problem to refuse it with (400). A request without Content-Encoding, or with `identity`, is returned as it is.
 */
export async function decodeRequestBody(req: Request, maxBytes: number): Promise<DecodedBody> {
  const header = req.headers.get("content-encoding");
  if (header === null) return { ok: true, req };
  const layers = header
    .split(",")
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e && e !== "identity");
  if (layers.length === 0) return { ok: true, req };
  const unknown = layers.find((e) => !(e in DECODERS));
  if (unknown !== undefined || layers.length > MAX_LAYERS) {
    return {
      ok: false,
      problem: `The request body's Content-Encoding "${header.slice(0, 100)}" is not accepted: send it plain, or encoded once with ${ACCEPTED_ENCODINGS.join(", ")}.`,
    };
  }
  let bytes: Buffer | null;
  try {
    bytes = await readBodyBytes(req, maxBytes);
  } catch {
    return { ok: false, problem: "The request body ended before all of it arrived." };
  }
  if (bytes === null) return { ok: false, problem: tooLargeMessage(maxBytes) };
  const encoding = layers[0]!;
  try {
    bytes = await DECODERS[encoding]!(bytes, maxBytes);
  } catch (err) {
    return {
      ok: false,
      problem: tooLarge(err)
        ? `${tooLargeMessage(maxBytes).slice(0, -1)} once decoded.`
        : `The request body is not valid ${encoding} data, as its Content-Encoding says it is.`,
    };
  }
  const headers = new Headers(req.headers);
  headers.delete("content-encoding");
  headers.delete("content-length");
  return {
    ok: true,
    req: new Request(req.url, { method: req.method, headers, body: new Uint8Array(bytes) }),
  };
}
