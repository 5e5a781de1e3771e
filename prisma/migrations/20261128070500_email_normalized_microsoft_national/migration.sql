-- Outlook.com's national consumer domains (hotmail.co.uk, outlook.de and the like) joined the table of providers
-- whose "+tag" is delivered to the base mailbox (server/email/canonical.ts MICROSOFT_NATIONAL). The canonical mailbox
-- of the events already stored at them drops the tag too, and accounts keyed by their address ("email:<address>")
-- move with it, as 20261127094324_event_email_normalized did for the first providers. Stored addresses are lower case;
-- a quoted local part stays as it is.
UPDATE "Event" SET "emailNormalized" = left("email", strpos("email", '+') - 1) || substring("email" from '@[^@]*$')
  WHERE "email" IS NOT NULL
    AND "email" NOT LIKE '"%'
    AND substring("email" from '@([^@]*)$') IN ('hotmail.co.uk', 'hotmail.fr', 'hotmail.de', 'hotmail.it', 'hotmail.es',
      'live.co.uk', 'live.fr', 'live.de', 'live.it', 'live.nl', 'live.ca', 'outlook.fr', 'outlook.de', 'outlook.es',
      'outlook.it')
    AND strpos("email", '+') > 1
    AND strpos("email", '+') < strpos("email", '@');

UPDATE "Event" SET "subject" = 'email:' || "emailNormalized"
  WHERE "subject" LIKE 'email:%' AND "emailNormalized" IS NOT NULL AND "subject" <> 'email:' || "emailNormalized";
