import { EventsView } from "./EventsView";

export const metadata = { title: "Events · Dashboard" };

export default async function EventsPage({
  searchParams,
}: {
  searchParams: Promise<{ view?: string; query?: string }>;
}) {
  const { view, query } = await searchParams;
  return (
    <EventsView
      initialView={view === "activity" ? "activity" : "all"}
      initialQuery={typeof query === "string" ? query.slice(0, 320) : ""}
    />
  );
}
