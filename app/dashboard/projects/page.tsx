// /dashboard/projects: the projects scanned with POST /v1/vulnerabilities/scan?project=, their refs and history.
import { ProjectsView } from "./ProjectsView";
import "../vulnerabilities/vulnerabilities.css";
import "./projects.css";

export const metadata = { title: "Projects · Dashboard" };
export const dynamic = "force-dynamic";

export default function ProjectsPage() {
  return (
    <>
      <h1>Projects</h1>
      <p className="muted small">
        A project keeps the history of its lockfile scans: scan with{" "}
        <code>POST /v1/vulnerabilities/scan?project=acme/web&amp;ref=main</code> (or the CLI&apos;s{" "}
        <code>--project</code>) and each answer is kept for your plan&apos;s history window, with what it adds and fixes
        against the project&apos;s default ref. Watch a project to be told when a new advisory or malware report hits a
        version it ships.
      </p>
      <ProjectsView />
    </>
  );
}
