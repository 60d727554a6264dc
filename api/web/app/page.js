// @ts-check
// page.js declares what a screen that draws the shared cards is: the
// contract between the pages (Session, a table open on this phone, in
// app.js; CrewPage, a crew, in crew.js) and the cards both draw (owed.js,
// money.js and the cards they use). It holds types only.

/** @typedef {import('./api.js').Table} Table */
/** @typedef {import('./api.js').Write} Write */
/** @template T @typedef {import('./tablelog.js').Loaded<T>} Loaded */

/**
 * Card is the state one card keeps across redraws while a write is made:
 * what is typed, whether it is being sent (busy: true, or the id of the
 * row being sent), the write (kept so a retry reuses its key), the
 * refusal or the confirmation to show. A card's own fields are declared
 * with it (ReceiptCard and the others below): any other field reads as
 * unknown, so a misspelt one fails tsc. error is the one loose field: most
 * cards keep the refusal's text, Battleship Royale's the thrown Problem
 * (to tell "recorded since" apart), and message() reads either.
 * @typedef {{ busy?: boolean | number, error?: any, done?: string, note?: string, request?: Write | null,
 *   confirm?: boolean | number | string }} Card
 */

/**
 * The cards that keep fields of their own, each a Card with them.
 * @typedef {Card & { key?: string }} ReceiptCard audit.js: and the server's key
 * @typedef {Card & { reason: string }} CorrectionCard corrections.js: one open confirmation and its reason
 * @typedef {Card & { player: number, amount: string }} CashCard host.js: who and how much, as typed
 * @typedef {Card & { scroll?: boolean }} CloseCard host.js: closing the table (scroll: arrived from the Play tab)
 * @typedef {Card & { method: string, handle?: string, name?: string, bic?: string }} HandlesCard handles.js: a handle being typed
 * @typedef {Card & { currency: string, worth: string }} UnitValueCard handles.js: the unit's worth being typed
 * @typedef {Card & { refusing?: boolean, reason?: string }} AnswerCard paying.js: the answer to one claim, and a no's reason
 * @typedef {Card & { game: number, ask?: boolean }} AbandonCard royale.js: abandoning game number game
 * @typedef {Card & { payer: number, amount: string, open?: boolean }} OwedCard owed.js: who paid me and how much, as typed
 * @typedef {Card & { offer?: import('./api.js').Schemas['RecoveryOffer'] | null }} RecoveryCard recovery.js: the code shown
 * @typedef {Card & { name: string }} SeatCard seats.js: the latecomer's name, as typed
 * @typedef {Card & { night?: import('./share.js').Night }} ShareCard share.js: the night drawn
 * @typedef {Card & { join?: import('./api.js').Write<import('./api.js').Schemas['JoinRequest'], import('./api.js').Joined> | null }} NightsCard nights.js: joining a night
 * @typedef {{ to: number, amount: number, busy?: boolean, error?: string, image?: ImageBitmap }} QRState paying.js: an EPC QR code being fetched or shown
 * @typedef {Card & { qr?: QRState, answers?: Record<number, AnswerCard> }} SettleCard paying.js
 */

/**
 * UI is a page's state that must outlive a redraw, one entry per card or
 * concern (every key a module keeps there is named here, so a typo fails
 * tsc). It is dropped when the page is opened again.
 * @typedef {object} UI
 * @property {Map<string, import('./api.js').Advice>} [odds] advisor.js: the advice already asked, by turn
 * @property {ReceiptCard} [receipt] audit.js: the night receipt's download
 * @property {Record<string, CorrectionCard>} [correct] corrections.js: the open confirmations, by id
 * @property {CashCard} [cash] host.js: a buy-in or cash-out being typed
 * @property {CloseCard | null} [close] host.js: closing the table
 * @property {Card} [joins] joins.js: the host's notices of phones that joined
 * @property {Record<string, Card>} [pay] money.js: each settle-up payment being marked paid, by payment
 * @property {OwedCard} [owed] owed.js: "you owe" and its payment
 * @property {SettleCard} [settle] paying.js: "I've sent it", the EPC QR code and the answers to claims
 * @property {HandlesCard} [handles] handles.js: this phone's payment handles
 * @property {UnitValueCard} [unitValue] handles.js: the host's unit value
 * @property {Card} [print] money.js: the printable statement
 * @property {import('./turnpad.js').DiceEntry | null} [entry] play.js: the dice being entered
 * @property {boolean} [showTurn] play.js, start.js: scroll the turn into view on the next draw
 * @property {RecoveryCard} [recovery] recovery.js: the host's recovery code
 * @property {AbandonCard | null} [abandon] royale.js: abandoning a game
 * @property {string} [aimed] royale.js: the cell aimed at, kept in view
 * @property {number} [boardLeft] royale.js: how far the board is scrolled
 * @property {import('./royaleact.js').RoyaleUI | null} [royale] royale.js: the move being made
 * @property {(Card & { first?: number }) | null} [startGame] royalestart.js: starting a game, and who starts
 * @property {Card} [leave] seats.js: a player leaving
 * @property {Card} [release] seats.js: a seat being freed
 * @property {SeatCard} [seat] seats.js: a latecomer being seated
 * @property {ShareCard} [share] share.js: sharing a closed night
 * @property {import('./start.js').StartUI | null} [start] start.js: starting a round
 * @property {string} [note] crew.js: what the crew page just did
 * @property {boolean} [invite] crew.js: the invite card is open
 * @property {import('./nightform.js').NightForm | null} [night] nightform.js: a night being set up
 * @property {NightsCard} [nights] nights.js: joining or adding a night
 * @property {import('./crewstats.js').StatsUI} [stats] crewstats.js: the crew's figures
 */

/**
 * Page is what the shared cards (owed.js, money.js) need of the screen
 * that draws them. Session (app.js) and CrewPage (crew.js) implement it,
 * each name with one meaning on both.
 * @typedef {object} Page
 * @property {number} id the table's id (a crew is a table)
 * @property {string} token this phone's token for it
 * @property {'host' | 'player' | 'audit'} role
 * @property {Table | null} table the table as last read (a crew's members are its players)
 * @property {number} me this phone's player (0: none)
 * @property {UI} ui
 * @property {(id: number) => string} name a player's name by id ("the bank" for 0)
 * @property {(force?: boolean) => void} render draws the page again (force: even while a field is typed in)
 * @property {() => Promise<unknown>} refresh reads the page's data again and redraws if it changed
 * @property {() => Promise<void>} reloadMoney reads the balances and settle-up again, before a write says it is done
 */

/**
 * Shown is a Page whose table has been read: what the shared cards are
 * drawn for (neither page draws them before).
 * @typedef {Page & { table: Table }} Shown
 */

/**
 * MoneyData is what the money cards read, each part read on its own (a
 * refusal of one, such as settle-up while the pot is not empty, keeps its
 * type): the balances, the settle-up and, for a table's host, the ledger.
 * @typedef {object} MoneyData
 * @property {Loaded<import('./api.js').Balances>} balances
 * @property {Loaded<import('./api.js').SettleUp> & { type?: string }} plan
 * @property {Loaded<import('./api.js').Transaction[] | null>} [ledger]
 * @property {Loaded<Awaited<ReturnType<typeof import('./api.js').handles>>>} [handles] the table's payment handles (none read with the audit token)
 */

export {};
