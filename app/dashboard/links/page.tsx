import { LinksView } from "./LinksView";

export const metadata = { title: "Protected links · Dashboard" };

export default function LinksPage() {
  return <LinksView />;
}
