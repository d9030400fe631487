/**
 * Box purchases on PostgreSQL, several in one statement (issue 25). Purchases of one case take turns on
 * the case's row lock, and each used to hold it through a commit of its own: the case's purchases could
 * go no faster than one transaction at a time. Here the purchases that arrive while a statement is in the
 * database wait, and go together in the next one:
 *
 *   select <lock>, shop_purchase(<purchase 1>) as a0, shop_purchase(<purchase 2>) as a1, ...
 *
 * one statement, one transaction (autocommit), one commit. Each call runs after the one before it and
 * sees what it did, exactly as if they had come one after the other: a twin with the same key meets the
 * key and answers the first answer, a slot the purchase before took is sold, a refusal changes nothing
 * and the calls after it go on. Nobody is answered before the commit.
 *
 * - One statement at a time per database handle (per process); at most MAX_MEMBERS purchases in it.
 *   A purchase that finds no statement running goes at once, alone.
 * - <lock> takes the rows the statement's purchases will lock, before any purchase runs and in the order
 *   shop_purchase takes them: every account (key share), then every case, then every wallet, each kind in
 *   id order. Statements of two processes meet on the first row both need and cannot deadlock on the
 *   others, and an account deletion (the account, then its wallet) waits or is waited for, as with a
 *   purchase alone.
 * - When the statement fails (a call raised: the series needs a new case, a key's twin committed by
 *   another process, a deadlock with some other work) everything in it is undone and each purchase runs
 *   again alone, as it would have without batching (purchaseOnPostgres.ts handles each outcome).
 * - Inside a transaction there is no batching: the caller's transaction is the unit.
 */
import { CompiledQuery } from 'kysely'
import type { Db } from '../../db'
import { nameStatement } from '../../db/named'

/** The most purchases in one statement (PostgreSQL takes up to 65,535 parameters; 20 each). */
export const MAX_MEMBERS = 32

/** `shop_purchase($first::bigint, ...)`: one call, its parameters numbered from `first`, each with its cast. */
export function purchaseCall (casts: string[], first = 1): string {
  return `shop_purchase(${casts.map((cast, j) => `$${first + j}${cast}`).join(', ')})`
}

interface Waiting<A> { parameters: unknown[], resolve: (answer: A) => void, reject: (err: unknown) => void }

/** What the batcher of a handle has done (tests and the bench read it). */
export interface BatchStats { statements: number, purchases: number, largest: number, fellBack: number }

function batchSql (casts: string[], n: number): string {
  const calls: string[] = []
  for (let i = 0; i < n; i++) calls.push(`${purchaseCall(casts, i * casts.length + 1)} as a${i}`)
  // the calls' own parameters: the buyer is each call's first, the case its fifth. As a list of single
  // values (not an array parameter) the statement's generic plan costs what a custom one does, so
  // PostgreSQL keeps it instead of planning the statement again at every run (db/named.ts)
  const each = (k: number): string => Array.from({ length: n }, (_, i) => `$${i * casts.length + k}${casts[k - 1]}`).join(', ')
  const users = each(1)
  const cases = each(5)
  // the accounts first (key share, as shop_purchase and every request that writes for an account: an account
  // deletion holds the account and then takes its wallet), then the cases, then the wallets
  const lock = `(select count(*) from (select 1 from users where id in (${users}) order by id for key share) u)` +
    ` + (select count(*) from (select 1 from cases where id in (${cases}) order by id for no key update) c)` +
    ` + (select count(*) from (select 1 from wallets where user_id in (${users}) order by user_id for no key update) w) as locked`
  return `select ${lock}, ${calls.join(', ')}`
}

class PurchaseBatcher<A> {
  private readonly queue: Array<Waiting<A>> = []
  private running = false
  readonly stats: BatchStats = { statements: 0, purchases: 0, largest: 0, fellBack: 0 }
  private readonly sqlBySize = new Map<number, string>()

  constructor (
    private readonly db: Db,
    private readonly casts: string[],
    /** One purchase alone (its own statement): the batch's fallback and the lone purchase. */
    private readonly alone: (db: Db, parameters: unknown[]) => Promise<A>
  ) {}

  call (parameters: unknown[]): Promise<A> {
    return new Promise<A>((resolve, reject) => {
      this.queue.push({ parameters, resolve, reject })
      this.pump()
    })
  }

  private pump (): void {
    if (this.running || this.queue.length === 0) return
    this.running = true
    const batch = this.queue.splice(0, MAX_MEMBERS)
    void this.run(batch)
  }

  /** The statement is done: the next one goes (with whoever waits). */
  private next (): void {
    this.running = false
    this.pump()
  }

  private sqlFor (n: number): string {
    let text = this.sqlBySize.get(n)
    if (!text) {
      this.sqlBySize.set(n, text = batchSql(this.casts, n))
      nameStatement(text)
    }
    return text
  }

  private async run (batch: Array<Waiting<A>>): Promise<void> {
    this.stats.statements++
    this.stats.purchases += batch.length
    this.stats.largest = Math.max(this.stats.largest, batch.length)
    if (batch.length === 1) {
      const [w] = batch
      let answer: A
      try {
        answer = await this.alone(this.db, w.parameters)
      } catch (err) {
        this.next()
        w.reject(err)
        return
      }
      this.next()
      w.resolve(answer)
      return
    }
    const parameters = batch.flatMap(w => w.parameters)
    let rows: Array<Record<string, A>> | null = null
    try {
      rows = (await this.db.executeQuery<Record<string, A>>(CompiledQuery.raw(this.sqlFor(batch.length), parameters))).rows
    } catch {
      // undone as a whole: each again, alone (below)
      this.stats.fellBack++
    }
    if (rows) {
      // the next statement goes first, to the database while these answers are being written
      this.next()
      batch.forEach((w, i) => w.resolve(rows[0][`a${i}`]))
      return
    }
    try {
      await Promise.all(batch.map(w => Promise.resolve().then(() => this.alone(this.db, w.parameters)).then(w.resolve, w.reject)))
    } finally {
      this.next()
    }
  }
}

const batchers = new WeakMap<Db, PurchaseBatcher<unknown>>()

/**
 * One purchase through its handle's batcher: `parameters` are the call's values but the last ("in a
 * transaction", false here), `casts` the call's casts, `alone` the call by itself.
 */
export function batchedPurchase<A> (db: Db, parameters: unknown[], casts: string[], alone: (db: Db, parameters: unknown[]) => Promise<A>): Promise<A> {
  if (db.isTransaction) return alone(db, [...parameters, false])
  let batcher = batchers.get(db) as PurchaseBatcher<A> | undefined
  if (!batcher) {
    batcher = new PurchaseBatcher<A>(db, casts, alone)
    batchers.set(db, batcher as PurchaseBatcher<unknown>)
  }
  return batcher.call([...parameters, false])
}

/** What the batcher of this handle has done so far (zeros when it has not run). */
export function purchaseBatchStats (db: Db): BatchStats {
  return { ...(batchers.get(db)?.stats ?? { statements: 0, purchases: 0, largest: 0, fellBack: 0 }) }
}
