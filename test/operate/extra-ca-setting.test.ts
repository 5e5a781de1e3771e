// SERVICE_EXTRA_CA_FILE: outside production every read of the setting (each trustedCas() call, so each outbound TLS
// connection) ran the shape check, which read the whole file again. The check now reads a file once per value: a
// value seen to be a PEM file stays accepted (trustedCas keeps what it read from it for the same value).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { setting } from "../../server/env";

const dir = mkdtempSync(path.join(tmpdir(), "svc-extra-ca-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  delete process.env.SERVICE_EXTRA_CA_FILE;
});

describe("SERVICE_EXTRA_CA_FILE", () => {
  it("is checked by reading its file once per value, not on every read of the setting", () => {
    const file = path.join(dir, "ca.pem");
    writeFileSync(file, "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
    process.env.SERVICE_EXTRA_CA_FILE = file;
    expect(setting("SERVICE_EXTRA_CA_FILE")).toBe(file);
    // Not read again: what it holds now is not looked at.
    writeFileSync(file, "no certificate here");
    expect(setting("SERVICE_EXTRA_CA_FILE")).toBe(file);
  });

  it("still refuses a file without PEM certificates, or none, in the words README's table uses", () => {
    const file = path.join(dir, "not-pem.txt");
    writeFileSync(file, "no certificate here");
    for (const value of [file, path.join(dir, "missing.pem"), dir]) {
      process.env.SERVICE_EXTRA_CA_FILE = value;
      expect(() => setting("SERVICE_EXTRA_CA_FILE")).toThrow(
        `SERVICE_EXTRA_CA_FILE=${JSON.stringify(value)} is invalid: it must be the path of a readable file of PEM certificates.`,
      );
    }
  });
});
