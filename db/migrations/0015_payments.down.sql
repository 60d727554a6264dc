DROP TABLE payment_claims;
DROP FUNCTION tally_claim_resolves_once();
DROP TABLE payment_handles;
ALTER TABLE tables DROP CONSTRAINT tables_unit_value_check;
ALTER TABLE tables DROP COLUMN unit_currency, DROP COLUMN unit_minor;
