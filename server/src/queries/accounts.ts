import { eq } from 'drizzle-orm';
import type { Db } from '../db/index.js';
import { admins, users } from '../db/schema.js';

export function getUser(db: Db, id: number) {
  return db.select().from(users).where(eq(users.id, id)).get() ?? null;
}

export function getAdmin(db: Db, id: number) {
  return db.select().from(admins).where(eq(admins.id, id)).get() ?? null;
}
