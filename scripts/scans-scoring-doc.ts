// Rewrites docs/scans-scoring.md from the scoring table the scorer uses.
import { writeFileSync } from "node:fs";
import { scoringDocMarkdown } from "../server/site-scans/scoring-docs";

writeFileSync(new URL("../docs/scans-scoring.md", import.meta.url), scoringDocMarkdown());
