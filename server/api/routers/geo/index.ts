// The geo router: its procedures, one file each.
import { router } from "../../trpc";
import { ipGeoProcedure } from "./ip-geo";

export const geoRouter = router({
  ipGeo: ipGeoProcedure,
});
