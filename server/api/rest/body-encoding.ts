// Request bodies sent compressed on /v1 (issue 42, item 3): `Content-Encoding: gzip` (or `x-gzip`), `deflate` or
// `br`. They used to be read as if they were plain text (refused as "not valid JSON", or a lockfile scanned as
// garbage). They are decoded, and the route's byte cap applies twice: to the bytes sent and to the decoded bytes, so
// a small body that inflates to gigabytes (a zip bomb) is stopped at the cap and never held whole. Any other
// encoding is refused with a message naming the ones accepted. The REST door (server/api/rest/plain-door.ts) decodes
// the bytes it read under the route's cap.
import { promisify } from "node:util";
import zlib from "node:zlib";
import { tooLargeMessage } from "../http/respond";

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

/**
 * The one encoding a body's Content-Encoding names (null for none, or `identity`), or the problem to refuse it with
 * (400): an encoding not accepted, or more than one.
 */
export function bodyEncodingOf(
  header: string | null,
): { ok: true; encoding: string | null } | { ok: false; problem: string } {
  if (header === null) return { ok: true, encoding: null };
  const layers = header
    .split(",")
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e && e !== "identity");
  if (layers.length === 0) return { ok: true, encoding: null };
  const unknown = layers.find((e) => !(e in DECODERS));
  if (unknown !== undefined || layers.length > MAX_LAYERS) {
    return {
      ok: false,
      problem: `The request body's Content-Encoding "${header.slice(0, 100)}" is not accepted: send it plain, or encoded once with ${ACCEPTED_ENCODINGS.join(", ")}.`,
    };
  }
  return { ok: true, encoding: layers[0]! };
}

/**
 * A body's bytes as sent (already read under the cap) decoded from `encoding` (bodyEncodingOf), its decoded size
 * under the same cap, or the problem to refuse it with (400).
 */
export async function decodeBodyBytes(
  bytes: Buffer,
  encoding: string,
  maxBytes: number,
): Promise<{ ok: true; bytes: Buffer } | { ok: false; problem: string }> {
  try {
    return { ok: true, bytes: await DECODERS[encoding]!(bytes, maxBytes) };
  } catch (err) {
    return {
      ok: false,
      problem: tooLarge(err)
        ? `${tooLargeMessage(maxBytes).slice(0, -1)} once decoded.`
        : `The request body is not valid ${encoding} data, as its Content-Encoding says it is.`,
    };
  }
}
