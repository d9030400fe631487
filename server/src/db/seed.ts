/**
 * Demo accounts for a first start outside production: a shopper and an operator. Only when the
 * users table is empty, so it never touches a database in use.
 */
import type { Db } from './index'
import type { Role } from './schema'
import type { Clock } from '../clock'
import { hashPassword } from '../security/passwords'
import { insertUser } from '../services/users'

export interface DemoLogin { role: Role; userName: string; password: string; phone: string; email: string }

export const DEMO_LOGINS: readonly DemoLogin[] = [
  { role: 'shopper', userName: 'shopper', password: 'shopper123', phone: '13800000001', email: 'shopper@example.com' },
  { role: 'operator', userName: 'operator', password: 'operator123', phone: '13800000002', email: 'operator@example.com' }
]

/** Creates the demo accounts if there are no users yet; answers the logins created ([] if none). */
export async function seedDemo (db: Db, clock: Clock): Promise<DemoLogin[]> {
  const { n } = await db.selectFrom('users').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  if (Number(n) > 0) return []
  for (const login of DEMO_LOGINS) {
    await insertUser(db, clock, {
      user_name: login.userName,
      phone: login.phone,
      email: login.email,
      nickname: login.role === 'operator' ? 'Demo operator' : 'Demo shopper',
      role: login.role,
      password_hash: await hashPassword(login.password)
    })
  }
  return [...DEMO_LOGINS]
}
