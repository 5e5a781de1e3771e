-- Items of ip lists stored as IPv4-mapped IPv6 (::ffff:8.8.4.4, ::ffff:9.9.0.0/112) become the IPv4 items they
-- mean (8.8.4.4, 9.9.0.0/16), as server/lists/values.ts now writes them: a dual-stack socket's ::ffff:a.b.c.d is
-- the IPv4 client a.b.c.d, and both sides of a list are compared in the IPv4 form. Where the list already holds the
-- IPv4 form, the mapped duplicate is dropped. The lists' versions move, so every instance rebuilds its index.
UPDATE "NamedList" l SET "version" = l."version" + 1
 WHERE l."kind" = 'ip'
   AND EXISTS (SELECT 1 FROM "NamedListItem" i
                WHERE i."listId" = l."id"
                  AND i."value" ~ '^::ffff:[0-9]{1,3}(\.[0-9]{1,3}){3}(/(9[6-9]|1[01][0-9]|12[0-8]))?$');

DELETE FROM "NamedListItem" d
 USING "NamedList" l
 WHERE l."id" = d."listId" AND l."kind" = 'ip'
   AND d."value" ~ '^::ffff:[0-9]{1,3}(\.[0-9]{1,3}){3}(/(9[6-9]|1[01][0-9]|12[0-8]))?$'
   AND EXISTS (SELECT 1 FROM "NamedListItem" x
                WHERE x."listId" = d."listId"
                  AND x."value" = CASE WHEN position('/' in d."value") = 0 THEN substr(d."value", 8)
                                       ELSE substr(split_part(d."value", '/', 1), 8) || '/' ||
                                            (split_part(d."value", '/', 2)::int - 96)::text END);

UPDATE "NamedListItem" i
   SET "value" = CASE WHEN position('/' in i."value") = 0 THEN substr(i."value", 8)
                      ELSE substr(split_part(i."value", '/', 1), 8) || '/' ||
                           (split_part(i."value", '/', 2)::int - 96)::text END
  FROM "NamedList" l
 WHERE l."id" = i."listId" AND l."kind" = 'ip'
   AND i."value" ~ '^::ffff:[0-9]{1,3}(\.[0-9]{1,3}){3}(/(9[6-9]|1[01][0-9]|12[0-8]))?$';
