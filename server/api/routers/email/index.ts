// The email router: its procedures, one file each.
import { router } from "../../trpc";
import { emailCheckProcedure } from "./email-check";
import { emailSecurityProcedure } from "./email-security";

export const emailRouter = router({
  emailCheck: emailCheckProcedure,
  emailSecurity: emailSecurityProcedure,
});
