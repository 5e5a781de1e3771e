// /dashboard/cases: the review queue, cases opened by review and challenge decisions.
import { CasesView } from "./CasesView";

export const metadata = { title: "Review queue · Dashboard" };

export default function CasesPage() {
  return <CasesView />;
}
