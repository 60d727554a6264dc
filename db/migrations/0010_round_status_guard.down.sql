-- 0010_round_status_guard down: rounds' status unguarded again.
DROP TRIGGER rounds_status_guard ON rounds;
DROP FUNCTION tally_round_status_guard();
