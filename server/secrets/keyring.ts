// The keys that encrypt secrets the service keeps in order to use them later (webhook signing secrets).
//
// - SERVICE_ENCRYPTION_KEY: base64 of 32 random bytes (`openssl rand -base64 32`); new secrets are encrypted
//   under it. Required in a declared production deployment (SERVICE_ENV=production).
// - SERVICE_ENCRYPTION_KEYS: previous keys, comma-separated, same format; only read, so that secrets sealed under
//   them stay usable until `npm run admin -- secrets rotate` has re-encrypted them under the current key.
// - Without SERVICE_ENCRYPTION_KEY (outside production) a key is generated once into
//   `<SERVICE_DATA_DIR>/encryption-keys` (mode 0600, one key per line, the current one first), like the session
//   secret, so `npm start` from a fresh clone works. `secrets rotate` then adds a new first line; older lines stay
//   readable. With SERVICE_DATA_DIR=memory:// the key lives in memory only (tests).
//
// A key's id is derived from its bytes (not configured), so a key moved from SERVICE_ENCRYPTION_KEY to
// SERVICE_ENCRYPTION_KEYS, or from the file to the variable, keeps its id and every envelope stays readable.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { dataDir, inMemory } from "../db/config";
import { ConfigurationError, isProductionDeployment, setting } from "../env";
import { makeFolders } from "../db/make-folders.mjs";

export interface EncryptionKey {
  id: string;
  key: Buffer;
}

export interface Keyring {
  current: EncryptionKey;
  byId: Map<string, EncryptionKey>;
  /** Where the current key comes from: the variable, the generated file, or process memory. */
  source: "env" | "file" | "memory";
  file: string | null;
}

const KEY_BYTES = 32;
const state = globalThis as unknown as {
  __serviceKeyring?: { ring: Keyring; fileMtime: number | null };
  __serviceMemoryKeys?: Buffer[];
};

export function keyIdOf(key: Buffer): string {
  return "k" + createHash("sha256").update("service-encryption-key-id\0").update(key).digest("hex").slice(0, 15);
}

function parseKey(text: string, variable: string): Buffer {
  const t = text.trim();
  const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(t)
    ? Buffer.from(t.replace(/-/g, "+").replace(/_/g, "/"), "base64")
    : Buffer.alloc(0);
  if (key.length !== KEY_BYTES) {
    throw new ConfigurationError(
      `${variable} must be base64 of ${KEY_BYTES} random bytes (e.g. \`openssl rand -base64 32\`); the value given decodes to ${key.length} bytes.`,
    );
  }
  return key;
}

const entry = (key: Buffer): EncryptionKey => ({ id: keyIdOf(key), key });

/** `<data dir>/encryption-keys`, or null when the data folder is memory:// (then keys live in memory). */
export function keyFilePath(): string | null {
  const dir = dataDir();
  return inMemory(dir) ? null : path.join(dir, "encryption-keys");
}

function readKeyFile(file: string | null): Buffer[] {
  if (!file || !existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"))
    .map((l) => parseKey(l, file));
}

const keyFileText = (keys: Buffer[]) =>
  "# Encryption keys of stored secrets, current first (see README: SERVICE_ENCRYPTION_KEY). Keep private.\n" +
  keys.map((k) => k.toString("base64")).join("\n") +
  "\n";

function writeKeyFile(file: string, keys: Buffer[]): void {
  makeFolders(path.dirname(file));
  // Write then rename, so a reader never sees half a file.
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, keyFileText(keys), { mode: 0o600 });
  renameSync(tmp, file);
}

/** The first key, created only if no file exists yet: two processes starting together end up with one key. */
function createKeyFileOnce(file: string): Buffer[] {
  makeFolders(path.dirname(file));
  try {
    writeFileSync(file, keyFileText([randomBytes(KEY_BYTES)]), { mode: 0o600, flag: "wx" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  const keys = readKeyFile(file);
  if (keys.length > 0) return keys;
  // An empty file (an interrupted first start) sealed nothing: replace it.
  const fresh = [randomBytes(KEY_BYTES)];
  writeKeyFile(file, fresh);
  return fresh;
}

function mtimeOf(file: string | null): number | null {
  try {
    return file ? statSync(file).mtimeMs : null;
  } catch {
    return null;
  }
}

function buildKeyring(): Keyring {
  const configured = setting("SERVICE_ENCRYPTION_KEY");
  if (!configured && isProductionDeployment()) {
    throw new ConfigurationError(
      "SERVICE_ENCRYPTION_KEY is required in production (SERVICE_ENV=production): set it to base64 of 32 random bytes (e.g. `openssl rand -base64 32`). It encrypts webhook signing secrets at rest.",
    );
  }
  const previous = setting("SERVICE_ENCRYPTION_KEYS").map((s) => parseKey(s, "SERVICE_ENCRYPTION_KEYS"));
  const file = keyFilePath();
  let fileKeys = readKeyFile(file);
  let source: Keyring["source"] = "env";
  let current: Buffer;
  if (configured) current = parseKey(configured, "SERVICE_ENCRYPTION_KEY");
  else if (file) {
    if (fileKeys.length === 0) fileKeys = createKeyFileOnce(file);
    current = fileKeys[0];
    source = "file";
  } else {
    state.__serviceMemoryKeys ??= [randomBytes(KEY_BYTES)];
    current = state.__serviceMemoryKeys[0];
    source = "memory";
  }
  // Every key we know stays readable: the variables', the file's (e.g. from before the variable was set) and memory's.
  const all = [current, ...previous, ...fileKeys, ...(state.__serviceMemoryKeys ?? [])];
  const byId = new Map(all.map((k) => [keyIdOf(k), entry(k)]));
  return { current: entry(current), byId, source, file };
}

/**
 * The keyring, loaded once per process and reloaded when the key file changed (another process rotated).
 * Throws, naming the variable, when production has no SERVICE_ENCRYPTION_KEY or a key is malformed.
 */
export function getKeyring(): Keyring {
  const cached = state.__serviceKeyring;
  if (
    cached &&
    (cached.ring.source === "env" || cached.ring.source === "memory" || mtimeOf(cached.ring.file) === cached.fileMtime)
  )
    return cached.ring;
  const ring = buildKeyring();
  state.__serviceKeyring = { ring, fileMtime: mtimeOf(ring.file) };
  return ring;
}

/** Forgets the loaded keyring (after the environment changed, or when an envelope names an unknown key). */
export function reloadKeyring(): Keyring {
  state.__serviceKeyring = undefined;
  return getKeyring();
}

/**
 * Makes a new current key where the service owns its keys (the generated file, or memory). With
 * SERVICE_ENCRYPTION_KEY the operator owns the key: a new one is set in the environment instead, and null is
 * returned.
 */
export function addGeneratedKey(): EncryptionKey | null {
  const ring = getKeyring();
  if (ring.source === "env") return null;
  const key = randomBytes(KEY_BYTES);
  if (ring.source === "file" && ring.file) writeKeyFile(ring.file, [key, ...readKeyFile(ring.file)]);
  else state.__serviceMemoryKeys = [key, ...(state.__serviceMemoryKeys ?? [])];
  reloadKeyring();
  return entry(key);
}
