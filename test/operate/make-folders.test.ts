// makeFolders (server/db/make-folders.mjs): `mkdir -p` that never spins on a folder the system refuses, and that
// never takes something else (a file, a broken symbolic link) for the folder it was asked for.
import { mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeFolders } from "../../server/db/make-folders.mjs";

const root = mkdtempSync(path.join(os.tmpdir(), "make-folders-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("makeFolders", () => {
  it("makes a folder and its missing parents with the mode asked, and takes one already there", () => {
    const deep = path.join(root, "a", "b", "c");
    makeFolders(deep, 0o700);
    expect(statSync(deep).isDirectory()).toBe(true);
    expect(statSync(path.join(root, "a")).mode & 0o777).toBe(0o700);
    expect(() => makeFolders(deep, 0o700)).not.toThrow();
  });

  it("refuses a regular file where the folder should be, and a broken symbolic link, as Node's mkdir -p did", () => {
    const file = path.join(root, "file");
    writeFileSync(file, "x");
    expect(() => makeFolders(file)).toThrow(expect.objectContaining({ code: "ENOTDIR" }));
    const link = path.join(root, "dangling");
    symlinkSync(path.join(root, "nowhere"), link);
    expect(() => makeFolders(link)).toThrow(expect.objectContaining({ code: "ENOENT" }));
    expect(() => makeFolders(path.join(link, "below"))).toThrow();
  });

  it("gives up at once on a folder the system will not make (under /proc), with its code", () => {
    expect(() => makeFolders("/proc/make-folders-test/x")).toThrow(expect.objectContaining({ code: "ENOENT" }));
  });
});
