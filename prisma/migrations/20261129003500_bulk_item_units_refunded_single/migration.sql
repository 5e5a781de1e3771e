-- An item of one unit that gave units back gave back that one (a blocklist target or a single address no source
-- answered): the last migration left it unknown with the ranges whose part was not recorded.
UPDATE "BulkItem" SET "unitsRefunded" = "units" WHERE "unitsRefunded" IS NULL AND "refunded" AND "units" = 1;
