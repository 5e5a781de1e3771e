// The dependency scan's reader (issue 25, item 1): each fixture's exact package list and skipped dependencies, format
// detection by content, the format override, and LockfileErrors that name the line of a malformed file.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  detectLockfileFormat,
  LockfileError,
  parseLockfile,
  type LockfileFormat,
  type ParsedLockfile,
} from "../../../server/vulnerabilities/lockfiles";

const fixture = (name: string) => readFileSync(path.join(__dirname, "fixtures", name), "utf8");

/** [ecosystem, name, version, line, dev] per package. */
const rows = (r: ParsedLockfile) => r.packages.map((p) => [p.ecosystem, p.name, p.version, p.line, p.dev]);
/** [name, reason, line] per skipped dependency. */
const skips = (r: ParsedLockfile) => r.skipped.map((s) => [s.name, s.reason, s.line]);

function lockfileError(fn: () => unknown): LockfileError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(LockfileError);
    return error as LockfileError;
  }
  throw new Error("expected a LockfileError");
}

describe("detection by content", () => {
  const cases: Array<[string, LockfileFormat]> = [
    ["package-lock-v1.json", "package-lock"],
    ["package-lock-v2.json", "package-lock"],
    ["package-lock-v3.json", "package-lock"],
    ["yarn-v1.lock", "yarn-v1"],
    ["yarn-berry.lock", "yarn-berry"],
    ["pnpm-v5.yaml", "pnpm"],
    ["pnpm-v6.yaml", "pnpm"],
    ["pnpm-v9.yaml", "pnpm"],
    ["requirements.txt", "requirements"],
    ["poetry.lock", "poetry"],
    ["Pipfile.lock", "pipfile"],
    ["composer.lock", "composer"],
    ["go.sum", "go-sum"],
    ["go.mod", "go-mod"],
    ["cyclonedx.json", "cyclonedx"],
    ["spdx.json", "spdx"],
  ];
  it.each(cases)("%s is %s", (file, format) => {
    expect(detectLockfileFormat(fixture(file))).toBe(format);
    expect(parseLockfile(fixture(file)).format).toBe(format);
  });

  it("recognises a yarn v1 file without its comment line, and plain pinned requirements", () => {
    expect(detectLockfileFormat('left-pad@^1.0.0:\n  version "1.3.0"\n')).toBe("yarn-v1");
    expect(detectLockfileFormat("flask==3.0.0\n")).toBe("requirements");
  });

  it("says null for anything else, and parseLockfile then names the formats it reads", () => {
    for (const text of ["", "hello world, this is prose.\n", "{}", "[1, 2]", '{"name": "x"}', "<bom/>"])
      expect(detectLockfileFormat(text)).toBeNull();
    const error = lockfileError(() => parseLockfile("hello world, this is prose.\n"));
    expect(error.line).toBe(1);
    expect(error.message).toContain("package-lock.json");
    expect(error.message).toContain("go.sum");
    expect(error.message).toContain("SPDX");
  });

  it("an override reads npm-shrinkwrap.json as such (detection says package-lock)", () => {
    const text = fixture("package-lock-v2.json");
    expect(detectLockfileFormat(text)).toBe("package-lock");
    const result = parseLockfile(text, "npm-shrinkwrap");
    expect(result.format).toBe("npm-shrinkwrap");
    expect(rows(result)).toEqual(rows(parseLockfile(text)));
    const error = lockfileError(() => parseLockfile("{\n  bad\n}", "npm-shrinkwrap"));
    expect(error.message).toMatch(/^npm-shrinkwrap\.json line 2: /);
  });
});

describe("npm", () => {
  it("package-lock v3: nested, aliased, scoped and dev packages; git, link, workspace and tarball skipped", () => {
    const result = parseLockfile(fixture("package-lock-v3.json"));
    expect(rows(result)).toEqual([
      ["npm", "@babel/core", "7.24.0", 22, false],
      ["npm", "semver", "6.3.1", 27, false],
      ["npm", "lodash", "4.17.21", 32, false],
      ["npm", "lodash", "4.17.20", 37, false], // "my-lodash": "npm:lodash@4.17.20"
      ["npm", "semver", "7.6.0", 59, false],
      ["npm", "vitest", "1.6.0", 64, true],
    ]);
    expect(skips(result)).toEqual([
      ["private-lib", "git dependency", 43],
      ["local-utils", 'link to the local folder "../local-utils" (workspace or file: dependency)', 47],
      ["web", 'link to the local folder "packages/web" (workspace or file: dependency)', 51],
      ["remote-tar", "tarball URL dependency", 55],
    ]);
  });

  it("package-lock v2 reads `packages` (not the legacy `dependencies` copy)", () => {
    expect(rows(parseLockfile(fixture("package-lock-v2.json")))).toEqual([
      ["npm", "express", "4.18.2", 11, false],
      ["npm", "typescript", "5.4.5", 15, true],
    ]);
  });

  it("package-lock v1: recursive dependencies, an npm: alias, a git version", () => {
    const result = parseLockfile(fixture("package-lock-v1.json"));
    expect(rows(result)).toEqual([
      ["npm", "debug", "2.6.9", 7, false],
      ["npm", "ms", "2.0.0", 15, false], // nested under debug; "old-ms": "npm:ms@2.0.0" is the same version
      ["npm", "ms", "2.1.3", 22, false],
      ["npm", "mocha", "10.0.0", 36, true],
    ]);
    expect(skips(result)).toEqual([["forked", "git dependency", 32]]);
  });

  it("minified JSON puts every package on line 1", () => {
    const text = JSON.stringify(JSON.parse(fixture("package-lock-v3.json")));
    const result = parseLockfile(text);
    expect(result.packages).toHaveLength(6);
    expect(result.packages.every((p) => p.line === 1)).toBe(true);
  });

  it("a generated 5,000-package lockfile", () => {
    const packages: Record<string, unknown> = { "": { name: "big" } };
    for (let i = 0; i < 5000; i++)
      packages[`node_modules/pkg-${i}`] = {
        version: `1.0.${i % 7}`,
        resolved: `https://registry.example.test/pkg-${i}/-/pkg-${i}-1.0.${i % 7}.tgz`,
      };
    const text = JSON.stringify({ name: "big", lockfileVersion: 3, packages }, null, 2);
    const result = parseLockfile(text);
    expect(result.packages).toHaveLength(5000);
    expect(result.packages[4999]).toMatchObject({ name: "pkg-4999", line: 4 + 4999 * 4 + 4 });
  });
});

describe("yarn", () => {
  it("v1: multi-specifier entries, scoped names, an npm: alias; git, file and tarball skipped", () => {
    const result = parseLockfile(fixture("yarn-v1.lock"));
    expect(rows(result)).toEqual([
      ["npm", "@babel/code-frame", "7.12.13", 5, null],
      ["npm", "@babel/highlight", "7.14.0", 12, null],
      ["npm", "left-pad", "1.3.0", 17, null],
      ["npm", "left-pad", "1.2.0", 21, null], // old-pad@npm:left-pad@^1.0.0
    ]);
    expect(skips(result)).toEqual([
      ["my-fork", "git dependency", 25],
      ["local-thing", "local file dependency", 29],
      ["tarred", "tarball URL dependency", 32],
    ]);
  });

  it("berry: resolutions, an alias, a patch: entry, workspaces skipped (the root silently), git skipped", () => {
    const result = parseLockfile(fixture("yarn-berry.lock"));
    expect(rows(result)).toEqual([
      ["npm", "@types/node", "20.11.5", 8, null],
      ["npm", "@types/node", "18.19.0", 29, null],
      ["npm", "resolve", "1.22.8", 35, null],
      ["npm", "undici-types", "5.26.5", 47, null],
    ]);
    expect(skips(result)).toEqual([
      ["lib-a", "workspace package", 23],
      ["forked", "git dependency", 41],
    ]);
  });
});

describe("pnpm", () => {
  it("lockfileVersion 5: /name/version keys with _peer suffixes, dev flags, links and git tarballs skipped", () => {
    const result = parseLockfile(fixture("pnpm-v5.yaml"));
    expect(rows(result)).toEqual([
      ["npm", "@babel/runtime", "7.20.0", 13, true],
      ["npm", "react-dom", "17.0.2", 17, false],
      ["npm", "react", "17.0.2", 23, false],
    ]);
    expect(skips(result)).toEqual([
      ["local-lib", 'link to the local folder "../local-lib" (workspace or local package)', 9],
      ["forked", "tarball URL dependency", 27],
    ]);
  });

  it("lockfileVersion 6: /name@version(peer) keys, a workspace link and a directory skipped", () => {
    const result = parseLockfile(fixture("pnpm-v6.yaml"));
    expect(rows(result)).toEqual([
      ["npm", "@tanstack/react-query", "5.8.4", 16, false],
      ["npm", "react", "18.2.0", 22, false],
      ["npm", "eslint", "8.50.0", 26, true],
    ]);
    expect(skips(result)).toEqual([
      ["shared", 'link to the local folder "packages/shared" (workspace or local package)', 10],
      ["thing", "local folder dependency", 30],
    ]);
  });

  it("lockfileVersion 9: packages and snapshots, peer suffixes stripped, each version once", () => {
    const result = parseLockfile(fixture("pnpm-v9.yaml"));
    expect(rows(result)).toEqual([
      ["npm", "@vitejs/plugin-react", "4.2.1", 17, null],
      ["npm", "vite", "5.0.0", 22, null],
      ["npm", "esbuild", "0.19.0", 37, null],
    ]);
    expect(skips(result)).toEqual([["forked", "tarball URL dependency", 25]]);
  });
});

describe("PyPI", () => {
  it("requirements.txt: pins with == and ===, extras, markers, hashes; ranges, includes, editables and URLs skipped", () => {
    const result = parseLockfile(fixture("requirements.txt"));
    expect(rows(result)).toEqual([
      ["pypi", "django", "4.2.7", 4, null],
      ["pypi", "requests", "2.31.0", 5, null],
      ["pypi", "typing-extensions", "4.8.0", 6, null],
      ["pypi", "cryptography", "41.0.5", 10, null],
      ["pypi", "importlib-metadata", "6.8.0", 13, null],
      ["pypi", "zope-interface", "6.1", 15, null],
    ]);
    expect(skips(result)).toEqual([
      ["base.txt", "includes another file (base.txt), which was not sent: scan it separately", 2],
      ["flask-login", "not pinned to one version with == (a range or wildcard)", 7],
      ["urllib3", "not pinned (no version)", 8],
      ["numpy", "not pinned to one version with == (a range or wildcard)", 9],
      ["acme-tool", "editable install from a local folder or repository", 14],
      ["mylib", "version-control dependency (not from PyPI)", 16],
      ["./vendor/local_pkg", "local file or folder (not from PyPI)", 17],
    ]);
  });

  it("poetry.lock: category and groups give dev, a git source skipped", () => {
    const result = parseLockfile(fixture("poetry.lock"));
    expect(rows(result)).toEqual([
      ["pypi", "django", "4.2.7", 3, false],
      ["pypi", "pytest", "7.4.3", 11, true],
      ["pypi", "ruamel-yaml", "0.18.5", 19, false],
    ]);
    expect(skips(result)).toEqual([["my-tool", "git dependency (not from PyPI)", 27]]);
  });

  it("Pipfile.lock: default and develop, a git entry skipped, one version listed in both is not dev", () => {
    const result = parseLockfile(fixture("Pipfile.lock"));
    expect(rows(result)).toEqual([
      ["pypi", "jinja2", "3.1.2", 19, false],
      ["pypi", "black", "23.11.0", 30, true],
    ]);
    expect(skips(result)).toEqual([["my-lib", "git dependency (not from PyPI)", 24]]);
  });
});

describe("Composer and Go", () => {
  it("composer.lock: lowercased names, the leading v kept, dev packages; a branch and a path repository skipped", () => {
    const result = parseLockfile(fixture("composer.lock"));
    expect(rows(result)).toEqual([
      ["composer", "monolog/monolog", "3.5.0", 8, false],
      ["composer", "symfony/console", "v6.4.1", 15, false],
      ["composer", "phpunit/phpunit", "10.5.2", 33, true],
    ]);
    expect(skips(result)).toEqual([
      ["acme/internal", "development branch, not a tagged release", 21],
      ["acme/local", "path repository (a local folder, not from Packagist)", 26],
    ]);
  });

  it("go.sum: a version's /go.mod line and its tree line count once", () => {
    const result = parseLockfile(fixture("go.sum"));
    expect(rows(result)).toEqual([
      ["go", "github.com/gorilla/mux", "v1.8.0", 1, null],
      ["go", "golang.org/x/text", "v0.3.7", 3, null],
      ["go", "golang.org/x/text", "v0.14.0", 4, null],
    ]);
    expect(result.skipped).toEqual([]);
  });

  it("go.mod: require lines and blocks; a replace to a local path skipped, to a module version followed", () => {
    const result = parseLockfile(fixture("go.mod"));
    expect(rows(result)).toEqual([
      ["go", "github.com/gorilla/mux", "v1.8.0", 5, null],
      ["go", "golang.org/x/text", "v0.14.0", 8, null],
      ["go", "github.com/new/lib", "v1.3.1", 10, null],
    ]);
    expect(skips(result)).toEqual([["example.com/internal/auth", 'replaced by the local path "../auth"', 9]]);
  });
});

describe("SBOMs", () => {
  it("CycloneDX: nested components by purl in every supported ecosystem; cargo and a purl-less component skipped", () => {
    const result = parseLockfile(fixture("cyclonedx.json"));
    expect(rows(result)).toEqual([
      ["npm", "@angular/core", "17.0.0", 14, null],
      ["npm", "tslib", "2.6.2", 20, null],
      ["maven", "com.fasterxml.jackson.core:jackson-databind", "2.15.3", 28, null],
      ["pypi", "flask-cors", "4.0.0", 34, null],
      ["go", "github.com/gorilla/mux", "v1.8.0", 40, null],
      ["composer", "laravel/framework", "v10.0.0", 46, null],
    ]);
    expect(skips(result)).toEqual([
      ["serde", 'unsupported ecosystem "cargo"', 52],
      ["vendored-thing", "no package URL (purl)", 56],
    ]);
  });

  it("CycloneDX: names what it describes (metadata.component) as name@version, and nothing unreadable", () => {
    const bom = (metadata: unknown) =>
      JSON.stringify({
        bomFormat: "CycloneDX",
        specVersion: "1.5",
        metadata,
        components: [{ type: "library", name: "tslib", version: "2.6.2", purl: "pkg:npm/tslib@2.6.2" }],
      });
    expect(parseLockfile(bom({ component: { name: "acme/web", version: "main" } })).subject).toBe("acme/web@main");
    expect(parseLockfile(bom({ component: { name: "acme-web" } })).subject).toBe("acme-web");
    expect(parseLockfile(bom({ component: { group: "@acme", name: "web", version: "1.2.0" } })).subject).toBe(
      "@acme/web@1.2.0",
    );
    // Nothing but plain text: a control character, a lone surrogate (escaped in the JSON) or a bidirectional
    // override leaves the subject out (the version alone is dropped when only it is not plain).
    expect(parseLockfile(bom({ component: { name: "a\u0007b" } })).subject).toBeUndefined();
    expect(parseLockfile(bom({ component: { name: "a\ud800b" } })).subject).toBeUndefined();
    expect(parseLockfile(bom({ component: { name: "acme\u202egnp.exe" } })).subject).toBeUndefined();
    expect(parseLockfile(bom({ component: { name: "acme", version: "1\u0085" } })).subject).toBe("acme");
    expect(parseLockfile(bom(undefined)).subject).toBeUndefined();
    expect(parseLockfile(fixture("cyclonedx.json")).packages).toHaveLength(6);
  });

  it("SPDX: purl external references; a gem skipped naming its ecosystem; the described root is not a package", () => {
    const result = parseLockfile(fixture("spdx.json"));
    expect(rows(result)).toEqual([
      ["npm", "express", "4.18.2", 19, null],
      ["maven", "org.apache.logging.log4j:log4j-core", "2.14.1", 35, null],
    ]);
    expect(skips(result)).toEqual([
      ["rails", 'unsupported ecosystem "gem"', 27],
      ["mystery", "no package URL (purl)", 40],
    ]);
  });
});

describe("malformed files", () => {
  it("JSON syntax errors name the line", () => {
    const text =
      '{\n  "lockfileVersion": 3,\n  "packages": {\n    "node_modules/a": { "version": "1.0.0" }\n    "node_modules/b": {}\n  }\n}\n';
    const error = lockfileError(() => parseLockfile(text));
    expect(error.line).toBe(5);
    expect(error.message).toMatch(/^package-lock\.json line 5: not valid JSON/);
    const truncated = lockfileError(() => parseLockfile('{\n  "_meta": {},\n  "default": {\n'));
    expect(truncated.message).toMatch(/^Pipfile\.lock line \d+: not valid JSON/);
  });

  it("a wrong shape is a LockfileError, not a TypeError", () => {
    const shape = lockfileError(() => parseLockfile('{\n  "lockfileVersion": 3,\n  "packages": []\n}', "package-lock"));
    expect(shape.message).toBe('package-lock.json line 3: "packages" is not an object');
    // Detected, not named: npm's lockfileVersion says which file it is, even with "packages" a list as composer's is.
    const detected = lockfileError(() => parseLockfile('{\n  "lockfileVersion": 3,\n  "packages": [1]\n}'));
    expect(detected.message).toBe('package-lock.json line 3: "packages" is not an object');
    const entry = lockfileError(() =>
      parseLockfile('{\n  "lockfileVersion": 3,\n  "packages": {\n    "node_modules/a": 5\n  }\n}', "package-lock"),
    );
    expect(entry.line).toBe(4);
    const composer = lockfileError(() => parseLockfile('{"content-hash": "x", "packages": {"a": 1}}', "composer"));
    expect(composer.message).toMatch(/^composer\.lock line 1: "packages" is not a list/);
    const sbom = lockfileError(() => parseLockfile('{"bomFormat": "CycloneDX", "components": [1]}'));
    expect(sbom.message).toContain("a component is not an object");
    expect(lockfileError(() => parseLockfile("[1]", "spdx")).message).toMatch(
      /^SPDX SBOM line 1: the file is not an object/,
    );
  });

  it("YAML and TOML syntax errors name the line", () => {
    const pnpm = lockfileError(() => parseLockfile("lockfileVersion: '9.0'\n\npackages:\n  a@1.0.0: [\n"));
    expect(pnpm.message).toMatch(/^pnpm-lock\.yaml line \d+: not valid YAML/);
    expect(pnpm.line).toBeGreaterThanOrEqual(4);
    const berry = lockfileError(() => parseLockfile('__metadata:\n  version: 8\n\n"a@npm:1": {\n  version: 1\n'));
    expect(berry.message).toMatch(/^yarn\.lock line \d+: not valid YAML/);
    const poetry = lockfileError(() => parseLockfile('[[package]]\nname = "a"\nversion = \n'));
    expect(poetry.message).toMatch(/^poetry\.lock line 3: not valid TOML/);
    expect(poetry.line).toBe(3);
  });

  it("YAML nested past what the parser follows says so, not the engine's 'Maximum call stack size exceeded'", () => {
    const deep = "[".repeat(50_000) + "]".repeat(50_000);
    const pnpm = lockfileError(() => parseLockfile(`lockfileVersion: '9.0'\npackages: ${deep}\n`, "pnpm"));
    expect(pnpm.message).toBe("pnpm-lock.yaml line 2: not valid YAML: nested too deeply to read");
    const berry = lockfileError(() => parseLockfile(`__metadata:\n  version: 8\n"a@npm:1": ${deep}\n`, "yarn-berry"));
    expect(berry.message).toBe("yarn.lock line 3: not valid YAML: nested too deeply to read");
  });

  it("line formats name the offending line", () => {
    const sum = lockfileError(() => parseLockfile("a.com/x v1.0.0 h1:abc=\nnot a go.sum line\n", "go-sum"));
    expect(sum.line).toBe(2);
    expect(sum.message).toMatch(/^go\.sum line 2: /);
    const mod = lockfileError(() => parseLockfile("module x\n\nrequire (\n  a.com/y v1.0.0\n", "go-mod"));
    expect(mod.message).toMatch(/^go\.mod line \d+: the require block is not closed/);
    const yarn = lockfileError(() => parseLockfile('# yarn lockfile v1\n\na@^1:\n  version "1.0.0"\nb@^2\n'));
    expect(yarn.line).toBe(5);
    expect(yarn.message).toMatch(/^yarn\.lock line 5: /);
  });
});

describe("strings that are not text", () => {
  // Escapes in the file's syntax put what the request's own screen cannot see into a name or version.
  const lock = (key: string, version: string) =>
    `{\n  "lockfileVersion": 3,\n  "packages": {\n    "": { "name": "x" },\n    "node_modules/${key}": { "version": "${version}" }\n  }\n}\n`;

  it.each([
    ["a JSON-escaped NUL in a package name", lock("a\\u0000b", "1.0.0"), /^package-lock\.json line 5: .*NUL character/],
    ["a JSON-escaped NUL in a version", lock("a", "1.0.0\\u0000"), /^package-lock\.json line 5: .*NUL character/],
    ["a JSON-escaped control character", lock("a\\u0007b", "1.0.0"), /^package-lock\.json line 5: .*control character/],
    ["a JSON-escaped lone surrogate", lock("a\\ud800b", "1.0.0"), /^package-lock\.json line 5: .*surrogate/],
    [
      "a YAML-escaped NUL (pnpm)",
      "lockfileVersion: '9.0'\n\npackages:\n\n  \"a\\0b@1.0.0\":\n    resolution: {integrity: sha512-a}\n",
      /^pnpm-lock\.yaml.*NUL character/,
    ],
    [
      "a TOML-escaped NUL (poetry)",
      '[[package]]\nname = "a\\u0000b"\nversion = "1.0.0"\n',
      /^poetry\.lock.*NUL character/,
    ],
    [
      "a NUL written as such",
      '{\n  "lockfileVersion": 3,\n  "packages": {\u0000}\n}\n',
      /^line 3: the file holds a NUL/,
    ],
  ])("refuses %s, naming the line", (_what, text, message) => {
    expect(lockfileError(() => parseLockfile(text)).message).toMatch(message);
  });

  it("keeps names that are text (a scoped name, non-Latin letters, a surrogate pair)", () => {
    const result = parseLockfile(lock("@scope/caf\\u00e9-\\ud83d\\ude00", "1.0.0"));
    // Read whole, not refused; npm never published such a name (not URL-safe), so it is skipped, not looked up.
    expect(result.packages).toEqual([]);
    expect(result.skipped.map((p) => [p.name, p.spec])).toEqual([["@scope/café-😀", "1.0.0"]]);
  });
});

describe("edge cases", () => {
  it("CRLF line endings and a byte-order mark", () => {
    const yarn = '\uFEFF# yarn lockfile v1\r\n\r\nleft-pad@^1.0.0:\r\n  version "1.3.0"\r\n';
    expect(rows(parseLockfile(yarn))).toEqual([["npm", "left-pad", "1.3.0", 3, null]]);
    const req = "flask==3.0.0\r\nrequests==2.31.0 \\\r\n    --hash=sha256:abc\r\n";
    expect(rows(parseLockfile(req))).toEqual([
      ["pypi", "flask", "3.0.0", 1, null],
      ["pypi", "requests", "2.31.0", 2, null],
    ]);
  });

  it("yarn berry: a custom registry's ::__archiveUrl suffix is not part of the version", () => {
    const text =
      '__metadata:\n  version: 8\n\n"a@npm:^1.0.0":\n  version: 1.0.1\n  resolution: "a@npm:1.0.1::__archiveUrl=https%3A%2F%2Fnpm.example.com%2Fa%2F-%2Fa-1.0.1.tgz"\n';
    expect(rows(parseLockfile(text))).toEqual([["npm", "a", "1.0.1", 4, null]]);
  });

  it("pathological input stays linear: a long run of spaces, many escaped keys", () => {
    const spaces = `flask${" ".repeat(200_000)}x\nrequests==2.31.0\n`;
    expect(detectLockfileFormat(spaces)).toBeNull();
    expect(skips(parseLockfile(spaces, "requirements"))[0][1]).toContain("not pinned");
    const packages: Record<string, string> = {};
    for (let i = 0; i < 3000; i++) packages[`node_modules/p${i}`] = "";
    // Every key written with an escape: none is found in the text, so their lines are null after a bounded search.
    const text = JSON.stringify({ lockfileVersion: 3, packages: {} }).replace(
      '"packages":{}',
      `"packages":{${Object.keys(packages)
        .map((k) => `"${k.replace("p", "\\u0070")}":{"version":"1.0.0"}`)
        .join(",")}}`,
    );
    const result = parseLockfile(text);
    expect(result.packages).toHaveLength(3000);
    expect(result.packages[2999]).toMatchObject({ name: "p2999", line: null });
  });
});
