/**
 * The unit of work of both stores: every statement a command runs, written once in SQL that SQLite
 * and PostgreSQL both accept (`Dialect` names the few differences). Each method is one indexed
 * statement, or one per row it changes; the bid path is a constant handful of them. The statements
 * live with their aggregate (`<aggregate>/work.ts`); this class is their composition, and writes a
 * change set the one way there is (change-set/apply.ts).
 */
import { AccountsSql } from './accounts/work.js';
import { BillingSql } from './billing/work.js';
import { CatalogueSql } from './catalogue/work.js';
import { applyChangeSet } from './change-set/apply.js';
import type { Applied, ChangeSet } from './change-set/types.js';
import { HousesSql } from './houses/work.js';
import { LotsSql } from './lots/work.js';
import { MailSql } from './mail/work.js';
import { NoticesSql } from './notices/work.js';
import { PhotosSql } from './photos/work.js';
import { SavedSql } from './saved/work.js';
import { compose, SqlSlice } from './slice.js';
import type { UnitOfWork } from './store.js';
import { WalletSql } from './wallet/work.js';

// Safe: compose() below puts every method the interface names on the prototype, and throws at load if two collide.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class SqlUnitOfWork extends SqlSlice implements UnitOfWork {
  apply(changes: ChangeSet, now: number): Promise<Applied> {
    return applyChangeSet(this.sql, this.dialect, changes, now);
  }
}
// The slices' methods, on SqlUnitOfWork's prototype (slice.ts).
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface SqlUnitOfWork extends LotsSql, CatalogueSql, SavedSql, AccountsSql, WalletSql, PhotosSql, MailSql, NoticesSql, HousesSql, BillingSql {}
compose(SqlUnitOfWork, [LotsSql, CatalogueSql, SavedSql, AccountsSql, WalletSql, PhotosSql, MailSql, NoticesSql, HousesSql, BillingSql]);
