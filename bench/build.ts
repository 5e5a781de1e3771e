// Builds the production server once, before any store starts, with the same staleness rule as scripts/start.mjs
// (so the per-store `node scripts/start.mjs` finds a current build and starts at once).
import { buildIsStale, ensureBuild as buildWhenStale } from "../scripts/build-state.mjs";

export { buildIsStale };

export function ensureBuild(root: string): void {
  if (!buildWhenStale(root, { generateClient: true })) console.log("Production build is current.");
}
