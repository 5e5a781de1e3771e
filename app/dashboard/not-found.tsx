import Link from "next/link";

export default function DashboardNotFound() {
  return (
    <section className="card" data-testid="dashboard-not-found">
      <h1>Page not found</h1>
      <p>There is no dashboard page at this address. It may have moved, or the link may be mistyped.</p>
      <p>
        <Link href="/dashboard" className="btn btn-primary">
          Back to the overview
        </Link>
      </p>
    </section>
  );
}
