package ledger

import (
	"fmt"

	"github.com/tally-dice/tally/game"
)

// Party is a participant in a settle-up: a player, or the bank (PlayerID
// Bank) standing for the world account when cash went in or out through it.
// Balance follows the ledger's sign: positive is owed, negative owes.
type Party struct {
	PlayerID game.PlayerID `json:"playerId"`
	Name     string        `json:"name"`
	Balance  int64         `json:"balance"`
}

// SettlePayment is one payment of a settle-up plan: From pays To in cash.
type SettlePayment struct {
	From   Party `json:"from"`
	To     Party `json:"to"`
	Amount int64 `json:"amount"`
}

// SettlePlan is how a table settles up: who has what, and the payments
// that bring everyone to zero.
type SettlePlan struct {
	TableID  int64   `json:"tableId"`
	Currency string  `json:"currency"`
	Parties  []Party `json:"parties"` // everyone with a non-zero balance
	// Payments is the smallest set of payments (Exact) or a good greedy
	// one beyond ExactLimit participants.
	Payments []SettlePayment `json:"payments"`
	Exact    bool            `json:"exact"`
}

// bankName is how the world account appears in a settle-up.
const bankName = "Bank"

// SettleUp plans the payments that settle a table from its balance sheet:
// the players' net balances, plus the bank when the world account is not
// zero. It refuses while the pot holds money (ErrPotNotEmpty), because that
// money belongs to nobody yet: close the table (which returns the pot) or
// finish the carry-over first. Recording each payment moves the balances to
// zero.
func SettleUp(tableID int64, sheet BalanceSheet) (SettlePlan, error) {
	if sheet.Pot != 0 {
		return SettlePlan{}, fmt.Errorf("%w: the pot still holds %s: close the table or finish the carry-over first",
			ErrPotNotEmpty, Units(sheet.Pot, sheet.Currency))
	}
	plan := SettlePlan{TableID: tableID, Currency: sheet.Currency, Parties: []Party{}, Payments: []SettlePayment{}}
	for _, p := range sheet.Players {
		if p.Balance != 0 {
			plan.Parties = append(plan.Parties, Party{PlayerID: p.PlayerID, Name: p.Name, Balance: p.Balance})
		}
	}
	if sheet.World != 0 {
		plan.Parties = append(plan.Parties, Party{PlayerID: Bank, Name: bankName, Balance: sheet.World})
	}
	positions := make([]int64, len(plan.Parties))
	for i, p := range plan.Parties {
		positions[i] = p.Balance
	}
	transfers, exact, err := PlanTransfers(positions)
	if err != nil {
		return SettlePlan{}, fmt.Errorf("settle up table %d: %w", tableID, err)
	}
	plan.Exact = exact
	for _, t := range transfers {
		plan.Payments = append(plan.Payments, SettlePayment{From: plan.Parties[t.From], To: plan.Parties[t.To], Amount: t.Amount})
	}
	return plan, nil
}

// WhoOwesWhom is the plan as plain sentences, one per payment, such as
// "Ann pays Bob 30 units".
func (p SettlePlan) WhoOwesWhom() []string {
	lines := make([]string, len(p.Payments))
	for i, pay := range p.Payments {
		lines[i] = fmt.Sprintf("%s pays %s %s", pay.From.Name, pay.To.Name, Units(pay.Amount, p.Currency))
	}
	return lines
}

// Standing is the plain position of every party: "Ann owes 30 units",
// "Bob is owed 20 units", without deciding who pays whom.
func (p SettlePlan) Standing() []string {
	lines := make([]string, len(p.Parties))
	for i, party := range p.Parties {
		if party.Balance < 0 {
			lines[i] = fmt.Sprintf("%s owes %s", party.Name, Units(-party.Balance, p.Currency))
		} else {
			lines[i] = fmt.Sprintf("%s is owed %s", party.Name, Units(party.Balance, p.Currency))
		}
	}
	return lines
}
