package table

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/ledger"
	"github.com/tally-dice/tally/seal"
)

// AuditQuery is what a caller brings to the audit: chain heads phones
// witnessed (from write answers and the live stream), which the history
// must still hold, and whether to replay every round even where a sealed
// checkpoint vouches for it.
type AuditQuery struct {
	Witnessed []chain.Head
	Full      bool
}

// AuditReport is the answer to "wait, who won that round?": whether the
// table's history is intact and every round's recorded outcome and money
// are what the rules give when the rolls are replayed. Problems names
// every difference found, most telling first.
type AuditReport struct {
	OK         bool           `json:"ok"`
	Events     int            `json:"events"`
	Head       HeadView       `json:"head"`
	ChainOK    bool           `json:"chainOk"`
	FirstBreak string         `json:"firstBreak,omitempty"`
	SealsOK    bool           `json:"sealsOk"`
	JournalOK  bool           `json:"journalOk"`
	BalancesOK bool           `json:"balancesOk"`
	WitnessOK  bool           `json:"witnessOk"`
	Witnessed  []WitnessCheck `json:"witnessed"`
	Rounds     []RoundAudit   `json:"rounds"`
	// Games is each Battleship Royale game's check, at a Royale table.
	Games []RoundAudit `json:"games,omitempty"`
	// Replayed is how many rounds this audit replayed through the engine;
	// the others were replayed by an earlier audit whose sealed checkpoint
	// vouches that their stored rows have not changed since.
	Replayed int `json:"replayed"`
	// Unchanged says nothing stored has changed since an earlier audit
	// that found everything in order (the database's digest of every row
	// of the table is the one its sealed checkpoint names): its findings
	// stand, and nothing was read or replayed again.
	Unchanged bool     `json:"unchanged"`
	Problems  []string `json:"problems"`
}

// HeadView is a chain head as phones keep it: the last event's sequence
// number and hash (hex).
type HeadView struct {
	Seq  int64  `json:"seq"`
	Hash string `json:"hash"`
}

// headView shows a head.
func headView(h chain.Head) HeadView { return HeadView{Seq: h.Seq, Hash: hex.EncodeToString(h.Hash)} }

// WitnessCheck is one witnessed head and whether the history holds it.
type WitnessCheck struct {
	Seq    int64  `json:"seq"`
	Hash   string `json:"hash"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail,omitempty"`
}

// RoundAudit is one round's check.
type RoundAudit struct {
	Number int    `json:"number"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail,omitempty"`
}

// maxProblems bounds the problems listed; the count of the rest is given.
const maxProblems = 50

// Audit checks everything the table's history lets it check:
//   - the event hash chain, from the first event to the head the table row
//     names, with no sequence number missing;
//   - every event's seal and the head's seal (package seal): rows rewritten
//     and hashed again without the server's key do not pass;
//   - every head a phone witnessed is still in the history, so that cutting
//     the tail, or everything, is caught even by someone with the key;
//   - every journal transaction against the event that records it, every
//     reversal against what it undoes, and every balance against the sum
//     of its postings (ledger.Reconcile, which a receipt's check shares);
//   - every round replayed through the engine from the first, each
//     finished turn as recorded and each settled round's postings against
//     the replay. A sealed checkpoint from an earlier audit that found all
//     in order lets rounds whose stored rows are unchanged be skipped,
//     unless q.Full.
//
// An audit that finds everything in order leaves a new checkpoint.
func (s *Service) Audit(ctx context.Context, a Auth, q AuditQuery) (AuditReport, error) {
	var (
		events  []chain.Event
		rounds  []db.Round
		actions []db.Action
		turns   []db.Turn
		journal []db.JournalEntry
		games   []db.RoyaleGame
		played  []db.RoyaleAction
		cp      db.Checkpoint
		digest  []byte
		fast    bool
		nights  []db.CrewNight // a crew's
		books   []nightHistory
	)
	now, _, err := s.read(ctx, a, readPlan{accounts: true,
		history: func(b *db.Batch) {
			b.CheckpointGet(a.TableID, &cp)
			b.CheckpointDigest(a.TableID, &digest)
			b.CrewNightList(a.TableID, &nights) // none but a crew's
		},
		then: func(b *db.Batch, r *reading) {
			// A checkpoint's digest covers the dice rounds' rows: a
			// Battleship Royale table's games are replayed every time,
			// and a crew's roll-overs checked against its nights.
			if fast = !q.Full && r.row.Royale == nil && r.row.Kind != db.KindCrew &&
				s.checkpointStands(r.row, cp, digest, q.Witnessed); fast {
				return
			}
			if r.row.Royale != nil {
				b.RoyaleList(a.TableID, &games, &played)
			}
			if r.row.Kind == db.KindCrew {
				books = queueNights(b, nightIDs(nights), false)
			}
			b.EventList(a.TableID, &events)
			b.RoundList(a.TableID, &rounds)
			b.ActionListByTable(a.TableID, &actions)
			b.TurnListByTable(a.TableID, &turns)
			b.JournalList(a.TableID, &journal)
		}})
	if err != nil {
		return AuditReport{}, err
	}
	if fast {
		return unchangedReport(cp, q.Witnessed)
	}
	au := &audit{keys: s.keys, row: now.row, events: events}
	au.chain()
	au.seals()
	au.witness(q.Witnessed)
	au.table(now.Players)
	au.actions(actions)
	au.money(journal, now.Accounts, now.Players)
	st := &tableState{row: now.row, players: now.Players, accounts: now.Accounts}
	resume := au.rounds(st, rounds, actions, turns, journal, cp, q.Full)
	au.royale(games, played, journal, now.Accounts)
	if now.row.Kind == db.KindCrew {
		au.crew(journal, books)
	}
	rep := au.report()
	if rep.OK {
		s.keepCheckpoint(ctx, au.row, rep, resume, cp, digest)
	}
	return rep, nil
}

// checkpointStands says whether the table's checkpoint is this server's
// and nothing stored has changed since (the database's digest of every row
// is the one it names, and the table row, read here, still ends the chain
// at the checkpoint's head under this server's seal), and every witnessed
// head is its head.
func (s *Service) checkpointStands(row db.Table, cp db.Checkpoint, digest []byte, witnessed []chain.Head) bool {
	if len(cp.Seal) == 0 || string(cp.Digest) != string(digest) ||
		!seal.Valid(cp.Seal, s.keys.Checkpoint(row.ID, cp.Seq, cp.Hash, cp.Round, cp.Rows, cp.State, cp.Digest, cp.Report)) ||
		row.Head.Seq != cp.Seq || string(row.Head.Hash) != string(cp.Hash) ||
		!seal.Valid(row.HeadSeal, s.keys.Head(row.ID, row.Head.Seq, row.Head.Hash)) {
		return false
	}
	for _, w := range witnessed {
		if w.Seq != cp.Seq || string(w.Hash) != string(cp.Hash) {
			return false // checked against the events themselves
		}
	}
	return true
}

// unchangedReport is the report of an audit whose checkpoint stands: the
// earlier audit's, with the witnessed heads (each the head) checked.
func unchangedReport(cp db.Checkpoint, witnessed []chain.Head) (AuditReport, error) {
	var rep AuditReport
	if err := json.Unmarshal(cp.Report, &rep); err != nil {
		return AuditReport{}, fmt.Errorf("audit checkpoint of table %d: %w", cp.TableID, err)
	}
	rep.Replayed, rep.Unchanged, rep.Witnessed = 0, true, []WitnessCheck{}
	for _, w := range witnessed {
		rep.Witnessed = append(rep.Witnessed, WitnessCheck{Seq: w.Seq, Hash: hex.EncodeToString(w.Hash), OK: true})
	}
	return rep, nil
}

// keepCheckpoint stores what an audit that found everything in order
// vouches for: the digest of the rows it read and its report, and where its
// replay got to (or, when it replayed nothing new, where the last
// checkpoint's did).
func (s *Service) keepCheckpoint(ctx context.Context, row db.Table, rep AuditReport, resume *replayed, old db.Checkpoint, digest []byte) {
	rep.Witnessed, rep.Replayed = []WitnessCheck{}, 0
	report, err := json.Marshal(rep)
	if err != nil {
		return
	}
	cp := db.Checkpoint{TableID: row.ID, Seq: row.Head.Seq, Hash: row.Head.Hash, Rows: make([]byte, sha256.Size),
		State: []byte("null"), Digest: digest, Report: report}
	switch {
	case resume != nil:
		cp.Round, cp.Rows, cp.State = resume.round, resume.rows, resume.state
	case old.Round > 0:
		cp.Round, cp.Rows, cp.State = old.Round, old.Rows, old.State
	}
	if len(cp.Hash) == 0 {
		cp.Hash = chain.Genesis
	}
	cp.Seal = s.keys.Checkpoint(row.ID, cp.Seq, cp.Hash, cp.Round, cp.Rows, cp.State, cp.Digest, cp.Report)
	b := db.NewBatch(ctx)
	b.CheckpointPut(cp)
	if err := b.Send(s.pool); err != nil {
		s.log.Warn("keeping an audit checkpoint", "table", row.ID, "err", err)
	}
}

// replayed is how far an audit's replay got: the last settled round it
// replayed, the digest of the rows of the rounds up to it, and the game's
// state after it.
type replayed struct {
	round int
	rows  []byte
	state []byte
}

// audit is one audit in progress.
type audit struct {
	keys     *seal.Keys
	row      db.Table
	events   []chain.Event
	rep      AuditReport
	problems []string
}

// problem notes what broke.
func (au *audit) problem(format string, args ...any) {
	au.problems = append(au.problems, fmt.Sprintf(format, args...))
}

// chain checks the hash chain and that it ends where the table row says.
func (au *audit) chain() {
	r := chain.Verify(au.events)
	head := au.row.Head
	au.rep.Events, au.rep.ChainOK, au.rep.Head = r.Events, r.OK, headView(head)
	switch {
	case !r.OK:
		au.rep.FirstBreak = fmt.Sprintf("event %d: %s", r.BrokenAt, r.Problem)
	case int64(len(au.events)) != head.Seq || (len(au.events) > 0 && string(r.Head) != string(head.Hash)):
		au.rep.ChainOK = false
		au.rep.FirstBreak = fmt.Sprintf("event %d: the log ends at event %d, but the table's last event is %d",
			len(au.events)+1, len(au.events), head.Seq)
	}
	if !au.rep.ChainOK {
		au.problem("the hash chain breaks at %s", au.rep.FirstBreak)
	}
}

// seals checks every event's seal and the head's.
func (au *audit) seals() {
	au.rep.SealsOK = true
	bad := 0
	for _, e := range au.events {
		switch {
		case len(e.Seal) == 0:
			bad++
			if bad <= 3 {
				au.problem("event %d has no seal", e.Seq)
			}
		case !seal.Valid(e.Seal, au.keys.Event(au.row.ID, e.Seq, e.Hash)):
			bad++
			if bad <= 3 {
				au.problem("event %d's seal does not match it: it was written or changed without this server's key", e.Seq)
			}
		}
	}
	if bad > 3 {
		au.problem("%d events in all fail their seals", bad)
	}
	h := au.row.Head
	if !seal.Valid(au.row.HeadSeal, au.keys.Head(au.row.ID, h.Seq, h.Hash)) {
		bad++
		au.problem("the table's head (event %d) does not carry this server's seal: the log was cut or rewritten", h.Seq)
	}
	au.rep.SealsOK = bad == 0
}

// witness checks that the history holds every witnessed head.
func (au *audit) witness(heads []chain.Head) {
	au.rep.WitnessOK, au.rep.Witnessed = true, []WitnessCheck{}
	for _, h := range heads {
		c := WitnessCheck{Seq: h.Seq, Hash: hex.EncodeToString(h.Hash), OK: true}
		switch {
		case h.Seq < 1 || h.Seq > int64(len(au.events)) || au.events[h.Seq-1].Seq != h.Seq:
			c.OK = false
			c.Detail = fmt.Sprintf("a phone saw event %d, which this history does not have (it ends at event %d): events were removed after it was seen",
				h.Seq, len(au.events))
		case string(au.events[h.Seq-1].Hash) != string(h.Hash):
			c.OK = false
			c.Detail = fmt.Sprintf("a phone saw event %d with another hash: the history was rewritten after it was seen", h.Seq)
		}
		if !c.OK {
			au.rep.WitnessOK = false
			au.problem("%s", c.Detail)
		}
		au.rep.Witnessed = append(au.rep.Witnessed, c)
	}
}

// money reconciles the journal with the log and the balances with the
// postings.
func (au *audit) money(journal []db.JournalEntry, accounts []db.Account, players []db.Player) {
	found := ledger.Reconcile(au.events, journal, accounts)
	au.rep.JournalOK = len(found) == 0
	au.problems = append(au.problems, found...)
	total := ledger.Sheet(au.row.Currency, accounts, players).Total()
	au.rep.BalancesOK = total == 0 && len(found) == 0
	if total != 0 {
		au.problem("the balances sum to %d, not 0", total)
	}
}

// rounds replays the rounds (from a valid checkpoint, unless full) and
// checks each; it returns how far it got when everything replays and a
// round was settled since the checkpoint.
func (au *audit) rounds(st *tableState, rounds []db.Round, actions []db.Action, turns []db.Turn,
	journal []db.JournalEntry, cp db.Checkpoint, full bool) *replayed {
	au.rep.Rounds = []RoundAudit{}
	from := 0
	if !full && au.checkpointHolds(cp, rounds, actions, turns) {
		g, err := game.ResumeGame(st.rules(), decodeState(cp.State))
		if err == nil {
			st.game, from = g, cp.Round
			for _, r := range rounds[:from] {
				au.rep.Rounds = append(au.rep.Rounds, RoundAudit{Number: r.Number, OK: true,
					Detail: fmt.Sprintf("replayed by an earlier audit (checkpoint at event %d); unchanged since", cp.Seq)})
			}
		}
	}
	byRound := map[int][]db.Action{}
	for _, a := range actions {
		byRound[a.Round] = append(byRound[a.Round], a)
	}
	turnsOf := map[int][]db.Turn{}
	for _, t := range turns {
		turnsOf[t.Round] = append(turnsOf[t.Round], t)
	}
	corrected := corrections{rounds: au.reversedRounds(), entries: ledger.Reversed(journal)}
	settled, roundsOK := 0, true
	var state []byte
	for _, row := range rounds[from:] {
		pr := &playedRound{row: row, actions: byRound[row.Number]}
		if err := st.replayNext(pr); err != nil {
			err = fmt.Errorf("%w: round %d does not replay: %w", ErrHistoryBroken, row.Number, err)
			au.rep.Rounds = append(au.rep.Rounds, RoundAudit{Number: row.Number, Detail: err.Error()})
			au.problem("%v", err)
			return nil
		}
		au.rep.Replayed++
		st.rounds = append(st.rounds, pr)
		st.last = pr
		ra := auditRound(pr, turnsOf[row.Number], journal, corrected)
		au.rep.Rounds = append(au.rep.Rounds, ra)
		if !ra.OK {
			roundsOK = false
			au.problem("round %d: %s", ra.Number, ra.Detail)
		}
		if row.Status == db.RoundSettled && roundsOK {
			snap, err := st.game.Snapshot()
			if err != nil {
				return nil
			}
			settled, state = row.Number, encodeState(snap)
		}
	}
	if st.current() == nil && st.game != nil && au.row.Status == db.TableOpen {
		var pot int64
		for _, a := range st.accounts {
			if a.Kind == db.AccountPot {
				pot = a.Balance
			}
		}
		if st.game.Pot() != pot {
			au.rep.BalancesOK = false
			au.problem("the pot holds %d, but the replayed game leaves %d in it", pot, st.game.Pot())
		}
	}
	if !roundsOK || settled == 0 { // nothing settled since the checkpoint, or something broke
		return nil
	}
	var upto []db.Round
	for _, r := range rounds {
		if r.Number <= settled {
			upto = append(upto, r)
		}
	}
	return &replayed{round: settled, rows: rowsDigest(upto, actions, turns), state: state}
}

// checkpointHolds says whether cp is this server's, is of this history,
// and its rounds' stored rows are as they were when it was made.
func (au *audit) checkpointHolds(cp db.Checkpoint, rounds []db.Round, actions []db.Action, turns []db.Turn) bool {
	if cp.Round < 1 || cp.Round > len(rounds) || rounds[cp.Round-1].Number != cp.Round ||
		cp.Seq < 1 || cp.Seq > int64(len(au.events)) || string(au.events[cp.Seq-1].Hash) != string(cp.Hash) ||
		!seal.Valid(cp.Seal, au.keys.Checkpoint(au.row.ID, cp.Seq, cp.Hash, cp.Round, cp.Rows, cp.State, cp.Digest, cp.Report)) {
		return false
	}
	return string(rowsDigest(rounds[:cp.Round], actions, turns)) == string(cp.Rows)
}

// rowsDigest is the SHA-256 of the stored rows of rounds and of their
// actions and turns: what a replay of those rounds reads.
func rowsDigest(rounds []db.Round, actions []db.Action, turns []db.Turn) []byte {
	last := 0
	if len(rounds) > 0 {
		last = rounds[len(rounds)-1].Number
	}
	h := sha256.New()
	enc := json.NewEncoder(h)
	_ = enc.Encode(rounds)
	for _, a := range actions {
		if a.Round <= last {
			_ = enc.Encode(a)
		}
	}
	for _, t := range turns {
		if t.Round <= last {
			_ = enc.Encode(t)
		}
	}
	return h.Sum(nil)
}

// encodeState and decodeState keep a game state in a checkpoint.
func encodeState(g game.GameState) []byte {
	raw, _ := json.Marshal(g)
	return raw
}

func decodeState(raw []byte) game.GameState {
	var g game.GameState
	_ = json.Unmarshal(raw, &g)
	return g
}

// report finishes the report.
func (au *audit) report() AuditReport {
	rep := au.rep
	rep.OK = rep.ChainOK && rep.SealsOK && rep.WitnessOK && rep.JournalOK && rep.BalancesOK
	for _, r := range rep.Rounds {
		rep.OK = rep.OK && r.OK
	}
	for _, g := range rep.Games {
		rep.OK = rep.OK && g.OK
	}
	rep.Problems = au.problems
	if len(rep.Problems) > maxProblems {
		rep.Problems = append(rep.Problems[:maxProblems:maxProblems], fmt.Sprintf("and %d more", len(au.problems)-maxProblems))
	}
	if rep.Problems == nil {
		rep.Problems = []string{}
	}
	return rep
}

// table checks the table row's settings and its players against the events
// that recorded them: the rules, currency, name and overdraft setting
// against table.created, each player's id, name and seat against a
// player.seated.
func (au *audit) table(players []db.Player) {
	var created tableCreated
	if len(au.events) == 0 || au.events[0].Kind != "table.created" || json.Unmarshal(au.events[0].Payload, &created) != nil {
		au.problem("the log does not begin with the table's creation")
		au.rep.ChainOK = false
		return
	}
	t := au.row
	if created.Name != t.Name || created.Currency != t.Currency || created.NoOverdraft != t.NoOverdraft ||
		!reflect.DeepEqual(normalize(created.Ruleset), normalize(t.Rules)) || !reflect.DeepEqual(created.Royale, t.Royale) ||
		created.Kind != crewKind(t.Kind) || created.Crew != t.Crew {
		au.rep.ChainOK = false
		au.problem("the table's name, currency, rules, overdraft setting, kind or crew differ from those event 1 recorded when it was made")
	}
	seated := map[game.PlayerID]playerSeated{}
	for _, e := range au.events {
		var p playerSeated
		if e.Kind == "player.seated" && json.Unmarshal(e.Payload, &p) == nil {
			seated[p.Player] = p
		}
	}
	for _, p := range players {
		if s, ok := seated[p.ID]; !ok || s.Name != p.Name || s.Seat != p.Seat || s.Member != p.Member || s.Host != p.Host {
			au.rep.ChainOK = false
			au.problem("player %d (%s, seat %d) is not the player an event seated", p.ID, p.Name, p.Seat)
		}
	}
}

// actions checks the stored actions, which rounds are replayed from,
// against the round.action events that recorded them: each action names
// its event, which holds the same action, and each such event is one
// action's.
func (au *audit) actions(actions []db.Action) {
	recorded := map[int64]bool{}
	bad := 0
	for _, a := range actions {
		problem := au.actionProblem(a, recorded)
		recorded[a.EventSeq] = true
		if problem != "" {
			bad++
			if bad <= 3 {
				au.problem("round %d's action %d %s", a.Round, a.Seq, problem)
			}
		}
	}
	for _, e := range au.events {
		if (e.Kind == "round.action" || e.Kind == "round.voided") && !recorded[e.Seq] {
			bad++
			if bad <= 3 {
				au.problem("event %d records an action the round does not have", e.Seq)
			}
		}
	}
	if bad > 3 {
		au.problem("%d actions in all differ from the log", bad)
	}
	if bad > 0 {
		au.rep.ChainOK = false
	}
}

// actionProblem says how a stored action differs from the event that
// recorded it (a round.action, or a round.voided for a correction), or "".
func (au *audit) actionProblem(a db.Action, recorded map[int64]bool) string {
	if a.EventSeq < 1 || a.EventSeq > int64(len(au.events)) {
		return "names no event of the log"
	}
	if recorded[a.EventSeq] {
		return fmt.Sprintf("names event %d, which another action names too", a.EventSeq)
	}
	e := au.events[a.EventSeq-1]
	if a.Action.Kind == actionVoid {
		var ev roundVoided
		if e.Kind != "round.voided" || json.Unmarshal(e.Payload, &ev) != nil {
			return fmt.Sprintf("names event %d, which records no correction", a.EventSeq)
		}
		if ev.Round != a.Round || ev.Seq != a.Seq || ev.Voids != a.Voids || ev.Player != a.Action.Player || ev.Reason != a.Reason ||
			!sameRecorder(ev.ByHost, a.ByHost) {
			return fmt.Sprintf("differs from event %d, which recorded it", a.EventSeq)
		}
		return ""
	}
	var ev roundAction
	if e.Kind != "round.action" || json.Unmarshal(e.Payload, &ev) != nil {
		return fmt.Sprintf("names event %d, which records no action", a.EventSeq)
	}
	if ev.Round != a.Round || ev.Seq != a.Seq || !sameRecorder(ev.ByHost, a.ByHost) || !sameAction(ev.Action, a.Action) {
		return fmt.Sprintf("differs from event %d, which recorded it", a.EventSeq)
	}
	return ""
}

// sameRecorder reports whether an event and its stored action say the same
// of whether the host's phone recorded it: both true, both false, or
// neither saying (an action recorded before the table kept it).
func sameRecorder(event, stored *bool) bool {
	if event == nil || stored == nil {
		return event == nil && stored == nil
	}
	return *event == *stored
}

// sameAction reports whether two actions are the same: player, kind and
// throw (an empty list and none alike).
func sameAction(a, b game.Action) bool {
	if a.Player != b.Player || a.Kind != b.Kind || (a.Roll == nil) != (b.Roll == nil) {
		return false
	}
	return a.Roll == nil || slices.Equal(a.Roll.Dice, b.Roll.Dice) && slices.Equal(a.Roll.Rethrow, b.Roll.Rethrow) &&
		a.Roll.Path == b.Roll.Path
}

// auditRound checks a replayed round's recorded turns and its journal
// entries against the replay: a settled round's settlement moves what the
// engine decided and stands, a round being played has none standing, and
// a reversed round (c: what the log and the journal say was reversed) has
// every movement of money reversed.
func auditRound(pr *playedRound, turns []db.Turn, journal []db.JournalEntry, c corrections) RoundAudit {
	n := pr.row.Number
	fail := func(format string, args ...any) RoundAudit {
		return RoundAudit{Number: n, Detail: fmt.Sprintf(format, args...)}
	}
	if err := checkTurns(pr, turns); err != nil {
		return fail("%v", err)
	}
	if c.rounds[n] != (pr.row.Status == db.RoundVoid) {
		return fail("its status is %s, but the log says it was reversed: %t", pr.row.Status, c.rounds[n])
	}
	var settles []db.JournalEntry
	for _, j := range journal {
		if j.Round != n || (j.Kind != string(ledger.KindRoundSettle) && j.Kind != string(ledger.KindAnte)) {
			continue
		}
		_, gone := c.entries[j.EventSeq]
		switch {
		case pr.row.Status == db.RoundVoid && !gone && len(j.Postings) > 0:
			return fail("it was reversed, but its %s (event %d) stands", j.Kind, j.EventSeq)
		case pr.row.Status != db.RoundVoid && gone && j.Kind == string(ledger.KindAnte):
			return fail("its antes were reversed, but the round stands")
		case j.Kind == string(ledger.KindRoundSettle) && !gone:
			settles = append(settles, j)
		}
	}
	// A settlement that moved nothing (the pot carried) is not reversed
	// when its round is opened again: only the last settlement of a
	// settled round counts, and every other one standing moved nothing.
	last := len(settles)
	if pr.row.Status == db.RoundSettled {
		last--
	}
	for _, j := range settles[:max(last, 0)] {
		if len(j.Postings) > 0 {
			return fail("a settlement of it (event %d) stands beside the one it ended with", j.EventSeq)
		}
	}
	switch pr.row.Status {
	case db.RoundVoid:
		return RoundAudit{Number: n, OK: true, Detail: "reversed"}
	case db.RoundOpen:
		return RoundAudit{Number: n, OK: true, Detail: "being played"}
	}
	if len(settles) == 0 {
		return fail("no settlement in the journal")
	}
	res, _ := pr.round.Result() // the replay checked a settled round is over
	money := res.Settlement
	if pr.gameResult != nil {
		money = pr.gameResult.Settlement
	}
	if err := ledger.RoundSettlement(n, money, "").Matches(settles[len(settles)-1].Postings); err != nil {
		return fail("%v", err)
	}
	return RoundAudit{Number: n, OK: true}
}

// corrections are what the log and the journal say was reversed: the
// rounds, and the ledger events of the entries.
type corrections struct {
	rounds  map[int]bool
	entries map[int64]int64
}

// reversedRounds are the rounds the log says were reversed.
func (au *audit) reversedRounds() map[int]bool {
	out := map[int]bool{}
	for _, e := range au.events {
		var r roundReversed
		if e.Kind == "round.reversed" && json.Unmarshal(e.Payload, &r) == nil {
			out[r.Round] = true
		}
	}
	return out
}

// checkTurns compares the turns recorded as they ended with the replay:
// the same players, in play order, with the same outcomes. A turn whose
// ending action was taken back was ended again or is being played again:
// it only has to name an action that was taken back.
func checkTurns(pr *playedRound, turns []db.Turn) error {
	standing, err := standingActions(pr.actions)
	if err != nil {
		return err
	}
	stands := map[int]bool{}
	for _, a := range standing {
		stands[a.Seq] = true
	}
	voided := map[int]bool{}
	for _, a := range pr.actions {
		if a.Action.Kind == actionVoid {
			voided[a.Voids] = true
		}
	}
	players := pr.round.State().Players
	// A turn recorded before migration 7 names no action: it stands while
	// its turn is over and was not recorded again since.
	again := map[int]bool{}
	for _, t := range turns {
		if t.ActionSeq > 0 {
			again[t.Seq] = true
		}
	}
	if len(voided) > 0 {
		voided[0] = true
	}
	done, live := 0, 0
	for _, ps := range players {
		if ps.Status == game.StatusDone {
			done++
		}
	}
	for _, t := range turns {
		standsNow := stands[t.ActionSeq]
		if t.ActionSeq == 0 {
			standsNow = !again[t.Seq] && t.Seq >= 1 && t.Seq <= len(players) && players[t.Seq-1].Status == game.StatusDone
		}
		if !standsNow {
			if !voided[t.ActionSeq] {
				return fmt.Errorf("turn %d is recorded as ended by action %d, which the round does not have", t.Seq, t.ActionSeq)
			}
			continue
		}
		live++
		if t.Seq < 1 || t.Seq > len(players) || players[t.Seq-1].Player != t.Player {
			return fmt.Errorf("turn %d is recorded for player %d, who does not throw there", t.Seq, t.Player)
		}
		want := db.TurnOf(t.Round, t.Seq, t.Player, players[t.Seq-1].Outcome)
		want.ActionSeq = t.ActionSeq
		if !reflect.DeepEqual(normalize(t), normalize(want)) {
			return fmt.Errorf("player %d's recorded turn differs from the replayed rolls", t.Player)
		}
	}
	if live != done {
		return fmt.Errorf("%d turns recorded, the replay finishes %d", live, done)
	}
	return nil
}
