// /dashboard/projects: the projects scanned with POST /v1/vulnerabilities/scan?project=, their refs and history.
import { ProjectsView } from "./ProjectsView";
import "../vulnerabilities/vulnerabilities.css";
import "./projects.css";

export const metadata = { title: "Projects · Dashboard" };
export const dynamic = "force-dynamic";

export default async function ProjectsPage({ searchParams }: { searchParams: Promise<{ project?: string }> }) {
  // ?project=<name> opens that project's page (the scan form links here after saving a scan to a project).
  const { project } = await searchParams;
  return (
    <>
      <h1>Projects</h1>
      <p className="muted small" data-testid="projects-intro">
        A project keeps the history of its lockfile scans: scan with{" "}
        <code>POST /v1/vulnerabilities/scan?project=acme/web</code> (or the CLI&apos;s <code>--project</code>) and each
        answer is kept for your plan&apos;s history window. A scan without <code>ref</code> is filed under the
        project&apos;s default ref: scan your main branch that way, since a watch re-checks the default ref&apos;s
        latest scan and the chart counts its scans. A pull request&apos;s scan with <code>&amp;ref=pr-42</code> answers
        what it adds and fixes against the default ref&apos;s latest scan (<code>base_ref</code> compares with another
        ref instead). Watch a project to be told when a new advisory or malware report hits a version it ships.
      </p>
      <ProjectsView initial={typeof project === "string" && project ? project : null} />
    </>
  );
}
