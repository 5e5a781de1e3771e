import { ReportsView } from "./ReportsView";

export const metadata = { title: "Saved reports · Dashboard" };

export default async function ReportsPage({ searchParams }: { searchParams: Promise<{ open?: string }> }) {
  const { open } = await searchParams;
  return <ReportsView initialOpen={typeof open === "string" ? open : null} />;
}
