// Host TLS, host status and the online check. Every target passes the SSRF guard in `preflight`, before a unit is
// reserved, so a refused target costs nothing; the connection itself vets again (DNS can change in between).
import { router } from "../../trpc";
import { hostSslProcedure } from "./host-ssl";
import { hostStatusProcedure } from "./host-status";
import { onlineCheckProcedure } from "./online-check";

export const hostsRouter = router({
  hostSsl: hostSslProcedure,
  hostStatus: hostStatusProcedure,
  onlineCheck: onlineCheckProcedure,
});
