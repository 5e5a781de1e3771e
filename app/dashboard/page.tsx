import { OverviewView } from "./OverviewView";

export const metadata = { title: "Overview · Dashboard" };

export default function OverviewPage() {
  return <OverviewView />;
}
