// /dashboard/monitors/[id]: one monitor, its checks in words, its timeline and its alert settings.
import { MonitorDetail } from "./MonitorDetail";

export const metadata = { title: "Monitor · Dashboard" };

export default async function MonitorPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <MonitorDetail id={id} />;
}
