// /dashboard/monitors/new: the form, pre-filled from a result page's "Watch this host" (?target=&checks=).
import { NewMonitor } from "./NewMonitor";

export const metadata = { title: "New monitor · Dashboard" };

export default async function NewMonitorPage({
  searchParams,
}: {
  searchParams: Promise<{ target?: string; checks?: string }>;
}) {
  const { target, checks } = await searchParams;
  return <NewMonitor target={target ?? ""} checks={checks ?? ""} />;
}
