/**
 * SQLite's group commit and reading connection (server/src/db/sqlite-driver.ts), on a file database
 * (the reader exists only there) and in memory.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { sql, type Kysely } from 'kysely'
import { openDatabase, type DatabaseHandle } from '../../server/src/db'
import { GROUP_MAX_MEMBERS } from '../../server/src/db/sqlite-driver'
import { prepared } from '../../server/src/db/prepared'

type Db = Kysely<any>

/** A promise and its resolver, to hold a transaction open until the test lets it go. */
function gate (): { wait: Promise<void>; open: () => void } {
  let open!: () => void
  const wait = new Promise<void>(resolve => { open = resolve })
  return { wait, open }
}
const turn = () => new Promise(resolve => setImmediate(resolve))
const values = async (db: Db): Promise<number[]> =>
  (await sql<{ v: number }>`select v from t order by v`.execute(db)).rows.map(r => r.v)

describe.each(['file', 'memory'] as const)('group commit, %s database', (kind) => {
  let dir: string
  let handle: DatabaseHandle
  let db: Db
  beforeEach(async () => {
    // a group also commits once it is GROUP_MAX_AGE_MS old: with the clock still, how a group forms
    // depends on the order of events alone, not on how busy the machine running the test is
    const now = Date.now()
    jest.spyOn(Date, 'now').mockReturnValue(now)
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'group-commit-'))
    handle = openDatabase({ sqlitePath: kind === 'file' ? path.join(dir, 'g.sqlite') : ':memory:' })
    db = handle.db as unknown as Db
    await sql`create table t (v integer primary key)`.execute(db)
  })
  afterEach(async () => {
    jest.restoreAllMocks()
    await handle.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  test('transactions queued behind one another share a commit; each is committed when it hears so', async () => {
    const before = { ...handle.groupCommit! }
    const hold = gate()
    // the first holds the writer, so the others queue and then run one after another in one group
    const first = db.transaction().execute(async trx => {
      await hold.wait
      await sql`insert into t (v) values (0)`.execute(trx)
    })
    const rest = Array.from({ length: 9 }, (_, i) => db.transaction().execute(async trx => {
      await sql`insert into t (v) values (${i + 1})`.execute(trx)
      return i + 1
    }))
    await turn()
    hold.open()
    await first
    expect(await Promise.all(rest)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(await values(db)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    const g = handle.groupCommit!
    expect(g.members - before.members).toBe(10)
    // ten transactions, fewer commits
    expect(g.groups - before.groups).toBeLessThan(10)
    expect(g.largest).toBeGreaterThan(1)
    expect(g.largest).toBeLessThanOrEqual(GROUP_MAX_MEMBERS)
  })

  test('a failing transaction in a group undoes only itself; the others before and after it commit', async () => {
    const hold = gate()
    const first = db.transaction().execute(async trx => {
      await hold.wait
      await sql`insert into t (v) values (1)`.execute(trx)
    })
    const failing = db.transaction().execute(async trx => {
      await sql`insert into t (v) values (2)`.execute(trx)
      await sql`insert into t (v) values (1)`.execute(trx) // the first one's row: unique violation
    })
    const failingToo = db.transaction().execute(async trx => {
      await sql`insert into t (v) values (3)`.execute(trx)
      throw new Error('changed its mind')
    })
    const last = db.transaction().execute(async trx => {
      await sql`insert into t (v) values (4)`.execute(trx)
    })
    await turn()
    hold.open()
    const settled = await Promise.allSettled([first, failing, failingToo, last])
    expect(settled.map(s => s.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled'])
    expect(await values(db)).toEqual([1, 4])
  })

  test('a write outside any transaction commits the waiting group first, and is committed itself when it returns', async () => {
    const hold = gate()
    let firstDone = false
    const first = db.transaction().execute(async trx => {
      await sql`insert into t (v) values (1)`.execute(trx)
    }).then(() => { firstDone = true })
    // the second takes the writer right after the first and keeps it: the first waits for the group's commit
    const second = db.transaction().execute(async trx => {
      await sql`insert into t (v) values (2)`.execute(trx)
      await hold.wait
    })
    await turn()
    await turn()
    expect(firstDone).toBe(false)
    const plain = sql`insert into t (v) values (3)`.execute(db)
    hold.open()
    await Promise.all([first, second, plain])
    expect(firstDone).toBe(true)
    expect(await values(db)).toEqual([1, 2, 3])
    // committed: another connection sees all three
    if (kind === 'file') {
      const other = new SqliteDatabase(path.join(dir, 'g.sqlite'), { readonly: true })
      try {
        expect(other.prepare('select count(*) as n from t').get()).toEqual({ n: 3 })
      } finally {
        other.close()
      }
    }
  })

  test('a transaction is not answered before its group commits, and reads outside transactions never see it before', async () => {
    const hold = gate()
    let firstDone = false
    const first = db.transaction().execute(async trx => {
      await sql`insert into t (v) values (1)`.execute(trx)
    }).then(() => { firstDone = true })
    const second = db.transaction().execute(async trx => {
      await hold.wait
      await sql`insert into t (v) values (2)`.execute(trx)
    })
    await turn()
    await turn()
    expect(firstDone).toBe(false)
    if (kind === 'file') {
      // the reading connection sees what is committed: not yet the first transaction's row, and it
      // does not wait for the writer the second one holds
      expect(await values(db)).toEqual([])
      expect(firstDone).toBe(false)
    }
    hold.open()
    await Promise.all([first, second])
    expect(firstDone).toBe(true)
    expect(await values(db)).toEqual([1, 2])
  })

  test('a group whose commit fails fails every member, and none of their writes stays', async () => {
    // a deferred foreign key is checked at COMMIT: the second member leaves one broken, so the commit fails
    await sql`create table parent (id integer primary key)`.execute(db)
    await sql`create table child (id integer primary key, parent_id integer references parent (id) deferrable initially deferred)`.execute(db)
    const hold = gate()
    const first = db.transaction().execute(async trx => {
      await hold.wait
      await sql`insert into t (v) values (1)`.execute(trx)
    })
    const broken = db.transaction().execute(async trx => {
      await sql`insert into child (id, parent_id) values (1, 99)`.execute(trx)
    })
    const third = db.transaction().execute(async trx => {
      await sql`insert into t (v) values (3)`.execute(trx)
    })
    await turn()
    hold.open()
    const settled = await Promise.allSettled([first, broken, third])
    expect(settled.map(s => s.status)).toEqual(['rejected', 'rejected', 'rejected'])
    expect(await values(db)).toEqual([])
    expect((await sql<{ n: number }>`select count(*) as n from child`.execute(db)).rows[0].n).toBe(0)
    // and the database goes on
    await db.transaction().execute(trx => sql`insert into t (v) values (5)`.execute(trx))
    expect(await values(db)).toEqual([5])
  })

  test('prepared statements run directly belong to their transaction: undone with it, refused after it', async () => {
    // (table t is not in the shop's schema: the prepared query sees the database untyped)
    const insert = prepared((d, v: number) => (d as unknown as Db).insertInto('t').values({ v }))
    const ins = (trx: Db, v: number) => insert.execute(trx as never, v)
    const before = handle.groupCommit!.direct
    await expect(db.transaction().execute(async trx => {
      await ins(trx, 1) // the first goes through Kysely and names its transaction
      await ins(trx, 2) // the rest run directly
      await ins(trx, 3)
      throw new Error('undo')
    })).rejects.toThrow('undo')
    expect(handle.groupCommit!.direct - before).toBe(2)
    expect(await values(db)).toEqual([])
    let kept: Db | null = null
    await db.transaction().execute(async trx => {
      kept = trx
      await ins(trx, 4)
      await ins(trx, 5)
    })
    // a transaction object used after its end is refused (by Kysely), not run in whatever holds the writer now
    const hold = gate()
    const other = db.transaction().execute(async trx => {
      await ins(trx, 6)
      await hold.wait
    })
    await turn()
    await expect(ins(kept!, 7)).rejects.toThrow(/committed/)
    hold.open()
    await other
    expect(await values(db)).toEqual([4, 5, 6])
  })

  test('a transaction begun by hand (as a migration does) reads its own writes', async () => {
    await sql`begin immediate`.execute(db)
    await sql`insert into t (v) values (7)`.execute(db)
    expect(await values(db)).toEqual([7])
    await sql`commit`.execute(db)
    expect(await values(db)).toEqual([7])
  })

  test('a member undone after a statement that failed half-way keeps the group whole (journals in memory)', async () => {
    // the savepoint and statement journals are kept in memory (db/index.ts), not in temporary files
    const store = await db.transaction().execute(async trx => (await sql<{ temp_store: number }>`pragma temp_store`.execute(trx)).rows[0].temp_store)
    expect(store).toBe(2)
    const before = { ...handle.groupCommit! }
    const hold = gate()
    const first = db.transaction().execute(async trx => {
      await sql`insert into t (v) values (1), (2)`.execute(trx)
      await hold.wait
    })
    // queued behind the first, in its group: a multi-row insert fails on its third row (a duplicate)
    const failing = db.transaction().execute(async trx => {
      await sql`insert into t (v) values (3)`.execute(trx)
      await sql`insert into t (v) values (4), (5), (1)`.execute(trx)
    }).then(() => null, (err: Error) => err)
    const last = db.transaction().execute(async trx => { await sql`insert into t (v) values (6)`.execute(trx) })
    await turn()
    hold.open()
    await first
    expect((await failing)?.message).toMatch(/UNIQUE/)
    await last
    expect(await values(db)).toEqual([1, 2, 6])
    // the two that kept their work committed together, in one group
    expect(handle.groupCommit!.groups - before.groups).toBe(1)
    expect(handle.groupCommit!.members - before.members).toBe(2)
  })
})
