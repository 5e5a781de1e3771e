// The dashboard shell: only for signed-in users; picks the workspace (validated svc_workspace cookie, else the
// first membership) and offers to create one when the user has none.
import { cookies, headers } from "next/headers";
import Link from "next/link";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { getSessionUser } from "../../server/auth/session";
import { WORKSPACE_COOKIE } from "../../server/auth/workspace-selection";
import { PLANS } from "../../server/plans/catalog";
import { getDb } from "../../server/db/client";
import { membershipsOf } from "../../server/workspaces/members";
import { CreateWorkspaceForm } from "./_components/CreateWorkspaceForm";
import { Nav } from "./_components/Nav";
import { Providers } from "./_components/Providers";
import { SignOutButton } from "./_components/SignOutButton";
import { WorkspaceSwitcher } from "./_components/WorkspaceSwitcher";
import "./dashboard.css";
import "./answers.css";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  let user: Awaited<ReturnType<typeof getSessionUser>> = null;
  try {
    user = await getSessionUser();
  } catch (err) {
    console.error("[auth] dashboard session unavailable:", err);
  }
  if (!user) {
    // Back to the page that was asked for after signing in (the sign-in page accepts only same-site paths).
    const wanted = (await headers()).get("x-dashboard-path");
    const back = wanted && wanted.startsWith("/dashboard") ? wanted : "/dashboard";
    redirect(`/signin?callbackUrl=${encodeURIComponent(back)}`);
  }

  const memberships = await membershipsOf(await getDb(), user.userId);
  const wanted = (await cookies()).get(WORKSPACE_COOKIE)?.value;
  const selected = memberships.find((m) => m.workspace.id === wanted) ?? memberships[0] ?? null;
  const workspaces = memberships.map((m) => ({ id: m.workspace.id, name: m.workspace.name, role: m.role }));

  return (
    <Providers key={selected?.workspace.id ?? "none"} workspaceId={selected?.workspace.id ?? null}>
      <div className="dash">
        <a href="#main" className="skip-link">
          Skip to main content
        </a>
        <header className="dash-header">
          <Link href="/dashboard" className="brand">
            Security Intelligence
          </Link>
          <WorkspaceSwitcher workspaces={workspaces} selectedId={selected?.workspace.id ?? null} />
          <span className="grow" />
          <span className="muted small" data-testid="signed-in-as">
            {user.email}
          </span>
          <SignOutButton />
        </header>
        {selected ? (
          <div className="dash-body">
            <Nav />
            <main className="dash-main" id="main" tabIndex={-1}>
              {children}
            </main>
          </div>
        ) : (
          <main className="dash-main narrow" id="main" tabIndex={-1}>
            <h1>Create your first workspace</h1>
            <p className="muted">
              A workspace holds API keys, a plan with a monthly allowance of lookup units, and members. You will be its
              owner.
            </p>
            <p className="muted" data-testid="first-run-plan">
              It starts on the Free plan: {PLANS.free.monthlyUnits.toLocaleString("en-US")} lookup units a month for
              geolocation and vulnerability lookups. A paid plan is set by the operator or a verified payment.
            </p>
            <CreateWorkspaceForm />
          </main>
        )}
      </div>
    </Providers>
  );
}
