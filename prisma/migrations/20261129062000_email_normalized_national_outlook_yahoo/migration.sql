-- More of Outlook.com's national consumer domains (outlook.co.uk, hotmail.com.au, live.com.mx and the like) joined
-- the table of providers whose "+tag" is delivered to the base mailbox (server/email/canonical.ts MICROSOFT_NATIONAL),
-- and Yahoo Mail's national domains (yahoo.co.uk, yahoo.fr, ...: YAHOO_NATIONAL) joined yahoo.com, whose "-keyword"
-- disposable addresses are delivered to the base name. The canonical mailbox of the events already
-- stored at them drops the tag too, and accounts keyed by their address ("email:<address>") move with it, as
-- 20261128070500_email_normalized_microsoft_national did. Stored addresses are lower case; a quoted local part stays
-- as it is.
UPDATE "Event" SET "emailNormalized" = left("email", strpos("email", '+') - 1) || substring("email" from '@[^@]*$')
  WHERE "email" IS NOT NULL
    AND "email" NOT LIKE '"%'
    AND substring("email" from '@([^@]*)$') IN (
      'outlook.co.uk', 'outlook.at', 'outlook.be', 'outlook.ie', 'outlook.dk', 'outlook.pt', 'outlook.jp',
      'outlook.in', 'outlook.co.nz', 'outlook.com.au', 'outlook.com.br', 'outlook.com.ar', 'outlook.com.tr',
      'hotmail.be', 'hotmail.ca', 'hotmail.at', 'hotmail.ie', 'hotmail.dk', 'hotmail.co.nz', 'hotmail.com.au',
      'hotmail.com.br', 'hotmail.com.ar', 'hotmail.com.mx', 'hotmail.com.tr', 'live.be', 'live.es', 'live.com.ar',
      'live.com.mx')
    AND strpos("email", '+') > 1
    AND strpos("email", '+') < strpos("email", '@');

UPDATE "Event" SET "emailNormalized" = left("email", strpos("email", '-') - 1) || substring("email" from '@[^@]*$')
  WHERE "email" IS NOT NULL
    AND "email" NOT LIKE '"%'
    AND substring("email" from '@([^@]*)$') IN (
      'yahoo.co.uk', 'yahoo.fr', 'yahoo.de', 'yahoo.it', 'yahoo.es', 'yahoo.ca', 'yahoo.in', 'yahoo.co.in',
      'yahoo.com.au', 'yahoo.com.br', 'yahoo.com.mx', 'yahoo.com.ar')
    AND strpos("email", '-') > 1
    AND strpos("email", '-') < strpos("email", '@');

UPDATE "Event" SET "subject" = 'email:' || "emailNormalized"
  WHERE "subject" LIKE 'email:%' AND "emailNormalized" IS NOT NULL AND "subject" <> 'email:' || "emailNormalized";
