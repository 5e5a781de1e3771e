-- Proton Mail treats ".", "_" and "-" in a username as transparent (proton.me/support/change-username: username is
-- user_name is user.name), so server/email/canonical.ts now drops them at Proton's domains (proton.me,
-- protonmail.com, protonmail.ch, pm.me), after the "+tag" it already dropped. The canonical mailbox of the events
-- already stored there drops them too, and accounts keyed by their address ("email:<address>") move with it, as
-- 20261129062000_email_normalized_national_outlook_yahoo did. Stored addresses are lower case; a quoted local part
-- stays as it is, and so does one made only of those characters.
UPDATE "Event" SET "emailNormalized" =
    translate(
      CASE WHEN strpos(split_part("email", '@', 1), '+') > 1
        THEN left(split_part("email", '@', 1), strpos(split_part("email", '@', 1), '+') - 1)
        ELSE split_part("email", '@', 1) END,
      '._-', '')
    || '@' || split_part("email", '@', 2)
  WHERE "email" IS NOT NULL
    AND "email" NOT LIKE '"%'
    AND split_part("email", '@', 2) IN ('proton.me', 'protonmail.com', 'protonmail.ch', 'pm.me')
    AND translate(
      CASE WHEN strpos(split_part("email", '@', 1), '+') > 1
        THEN left(split_part("email", '@', 1), strpos(split_part("email", '@', 1), '+') - 1)
        ELSE split_part("email", '@', 1) END,
      '._-', '') <> '';

UPDATE "Event" SET "subject" = 'email:' || "emailNormalized"
  WHERE "subject" LIKE 'email:%' AND "emailNormalized" IS NOT NULL AND "subject" <> 'email:' || "emailNormalized";
