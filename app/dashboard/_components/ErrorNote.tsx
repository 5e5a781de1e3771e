// Shows a failed call in words; a refusal that a plan change would lift links to the plan page. The API's error
// code is not shown (a user view carries no raw codes): it stays on the element as data-code for tests and support
// tools. API routes the message names are said as the dashboard page that does the same (dashboard-words.ts), and its
// `code` spans (field names such as `bin`) are shown as code.
import Link from "next/link";
import { dashboardMessage } from "./dashboard-words";
import { DocText } from "./DocText";

type MaybeTrpcError = { message?: string; data?: { appCode?: string } | null } | null | undefined;

const PLAN_CODES = new Set(["CAPABILITY_REQUIRED", "BULK_LOOKUPS_REQUIRED", "QUOTA_EXCEEDED"]);

export function errorCode(err: unknown): string | null {
  return (err as MaybeTrpcError)?.data?.appCode ?? null;
}

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const e = error as MaybeTrpcError;
  const code = e?.data?.appCode;
  return (
    <p className="error" role="alert" data-testid="error-note" data-code={code ?? undefined}>
      {e?.message ? <DocText text={dashboardMessage(e.message)} /> : "Something went wrong."}
      {code && PLAN_CODES.has(code) ? (
        <>
          {" "}
          <Link href="/dashboard/plan">See the plans</Link>
        </>
      ) : null}
    </p>
  );
}
