// The package registries' addresses come from configuration or from npm's own setting, never from the repository
// (../shared/DESIGN.md, "Upstream sources"): fixtures and the benchmark write the placeholder registry.example.test.
// This test reads every tracked file and fails on a public registry's host name. The names are built from pieces
// here, so this file does not name them either; the registry npm is configured with on this machine is added too.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const dot = (...parts: string[]) => parts.join(".");

/** npm's and yarn's registry hosts, and Debian's package archives. */
const PUBLIC_HOSTS = [
  dot("registry", "npmjs", "org"),
  dot("registry", "npmjs", "com"),
  dot("registry", "yarnpkg", "com"),
  dot("deb", "debian", "org"),
  dot("security", "debian", "org"),
];

/** The host of the registry npm uses here (npm's own setting), unless it is a local one. */
function configuredRegistryHost(): string | null {
  let url = process.env.npm_config_registry ?? "";
  if (!url) {
    try {
      url = execFileSync("npm", ["config", "get", "registry"], { encoding: "utf8", timeout: 30_000 }).trim();
    } catch {
      return null;
    }
  }
  try {
    const host = new URL(url).hostname.toLowerCase();
    return host && host !== "localhost" && !/^[\d.]+$|^\[/.test(host) && host.includes(".") ? host : null;
  } catch {
    return null;
  }
}

function trackedFiles(): string[] {
  return execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
    .split("\0")
    .filter(Boolean);
}

/** "file:line: host" for each tracked text file that names one of the hosts. */
function namings(hosts: string[]): string[] {
  const found: string[] = [];
  for (const file of trackedFiles()) {
    let text: string;
    try {
      const bytes = readFileSync(path.join(ROOT, file));
      if (bytes.includes(0)) continue; // binary (fonts, images, databases)
      text = bytes.toString("utf8").toLowerCase();
    } catch {
      continue; // deleted in the working tree
    }
    for (const host of hosts) {
      const at = text.indexOf(host);
      if (at !== -1) found.push(`${file}:${text.slice(0, at).split("\n").length}: ${host}`);
    }
  }
  return found;
}

describe("registry hosts", () => {
  it("are named by no tracked file (fixtures use registry.example.test)", () => {
    const configured = configuredRegistryHost();
    const hosts = [...new Set([...PUBLIC_HOSTS, ...(configured ? [configured] : [])])];
    expect(namings(hosts)).toEqual([]);
  });

  it("would be found: the check reads the files it is meant to read", () => {
    expect(trackedFiles()).toContain("test/vulnerabilities/lockfiles/fixtures/package-lock-v3.json");
    expect(namings([dot("registry", "example", "test")])).toContain(
      "test/vulnerabilities/lockfiles/fixtures/package-lock-v3.json:24: registry.example.test",
    );
  });
});
