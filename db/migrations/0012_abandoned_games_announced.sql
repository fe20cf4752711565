-- A game its players abandon by vote ends without a move, so its version does not rise and the
-- announcement outbox (0004) would not see that its end was never told, if the process died
-- between the vote's commit and the board. The vote's own transaction now lowers the board mark
-- below the version (a trigger: every write that ends a running game this way does it, whichever
-- backend or statement), and the games behind include the abandoned ones that were started (a
-- seed; a cancelled lobby never had one, nor anything to tell).
-- sqlite only: begin
CREATE TRIGGER games_abandoned_owe_their_board AFTER UPDATE OF status ON games
    WHEN OLD.status = 'running' AND NEW.status = 'abandoned'
BEGIN
    UPDATE games SET announced_version = MIN(announced_version, NEW.version - 1) WHERE id = NEW.id;
END;
-- sqlite only: end
-- postgresql only: CREATE FUNCTION games_abandoned_owe_their_board() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.announced_version := LEAST(NEW.announced_version, NEW.version - 1); RETURN NEW; END $$;
-- postgresql only: CREATE TRIGGER games_abandoned_owe_their_board BEFORE UPDATE OF status ON games FOR EACH ROW WHEN (OLD.status = 'running' AND NEW.status = 'abandoned') EXECUTE FUNCTION games_abandoned_owe_their_board();
DROP INDEX games_unannounced;
CREATE INDEX games_unannounced ON games (id, version, announced_version, notified_version)
    WHERE (status IN ('running', 'finished') OR status = 'abandoned' AND seed IS NOT NULL)
    AND (announced_version < version OR notified_version < version);
