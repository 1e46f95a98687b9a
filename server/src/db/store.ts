/**
 * The store interface (docs/architecture.md, "The store"): a unit of work for the commands, single-statement reads for
 * everything else, and what the server needs to run and close it. Two implementations, `sqlite/`
 * and `postgres/`, share every statement (each aggregate's `work.ts` and `reads.ts`, composed in
 * unit-of-work.ts and reads.ts) and differ in their driver, their transactions and the few words of `Dialect`.
 */
import type { Result } from '../errors.js';
import type { AccountsWork } from './accounts/types.js';
import type { BillingWork } from './billing/types.js';
import type { CatalogueWork } from './catalogue/types.js';
import type { Applied, ChangeSet } from './change-set/types.js';
import type { HousesWork } from './houses/types.js';
import type { LotsWork } from './lots/types.js';
import type { MailWork } from './mail/types.js';
import type { NoticesWork } from './notices/types.js';
import type { PhotosWork } from './photos/types.js';
import type { Reads } from './reads.js';
import type { SavedWork } from './saved/types.js';
import type { WalletWork } from './wallet/types.js';

export type StoreKind = 'sqlite' | 'postgres';

export interface Store {
  readonly kind: StoreKind;
  /** Absolute path of the SQLite file; null for `:memory:` and for PostgreSQL. */
  readonly file: string | null;
  /** Single-statement reads of committed data. */
  readonly reads: Reads;
  /**
   * Runs `work` as one transaction: all of its writes or none. A refusal is a result, so a `work`
   * that returns normally commits (a refused bid's `failed` row included); one that throws rolls back.
   * PostgreSQL retries a deadlock or serialization failure a few times (so `work` may run again and
   * must only touch the store through `tx`); then, as for a store busy past its timeout, the promise
   * rejects with StoreUnavailable.
   */
  transaction<T>(work: (tx: UnitOfWork) => Promise<T>): Promise<T>;
  /** Portable SQL with `?` placeholders, for audits, tests and scripts (never for the request path). */
  query<T>(text: string, params?: readonly (string | number | boolean | null)[]): Promise<T[]>;
  /**
   * 'ok', or what is wrong with the stored data itself: SQLite checks every page and foreign key;
   * PostgreSQL enforces its constraints on every write and checks its pages as it reads them.
   */
  integrityCheck(): Promise<string>;
  /** Cheap liveness probe for /api/health. */
  ping(): Promise<boolean>;
  /** The connections this process may hold, those in use and the work waiting for one (/metrics); null on SQLite. */
  connections(): { size: number; inUse: number; waiting: number } | null;
  /**
   * Elects one process among those sharing this store to do the job `name` (the scheduler):
   * `onChange(true)` when this process takes it on, `onChange(false)` when it must stop. Resolves
   * after the first try (having awaited `onChange(true)` if it won). SQLite serves one process, which
   * always leads; PostgreSQL holds an advisory lock (postgres/election.ts).
   */
  elect(name: string, onChange: (leading: boolean) => void | Promise<void>, onError: (err: unknown) => void): Promise<Election>;
  close(): Promise<void>;
  /**
   * Where it has them, lanes that decide the bids queued on one lot together, in one transaction
   * (PostgreSQL: a group commit per lot); null where every command is its own unit of work.
   */
  readonly lots: LotLanes | null;
}

/** What bidding and buying now read and write: the part of a unit of work a lot batch serves. */
export type LotUnitOfWork = Pick<UnitOfWork, 'lockProduct' | 'openProductsByName' | 'leader' | 'lockWallets' | 'isRegistered' | 'runnerUpTop' | 'followersOf' | 'bidWithContext' | 'apply'>;

/** A command decided, its writes not yet applied: the change set, and its answer once applied. */
export interface PreparedChange<T> {
  changes: ChangeSet;
  finish: (applied: Applied) => T;
}

/** A command on one lot, by the caller `userId` (whose wallet it may move) at `now`. */
export interface LotWork<T extends object> {
  /** The product id (or, for a bid, a product's name: such work is not batched). */
  productRef: string;
  userId: number;
  now: number;
  /** Decides against `tx`; a refusal may have applied its own record (a failed bid) through `tx`. */
  prepare: (tx: LotUnitOfWork) => Promise<Result<PreparedChange<T>>>;
}

export interface LotLanes {
  /**
   * Queues `work` behind the lot's other work in this process and runs it in the lot's next batch; its
   * answer once that batch has committed. Null when the work cannot be batched: run it on its own.
   */
  run<T extends object>(work: LotWork<T>): Promise<Result<T> | null>;
}

export interface Election {
  readonly isLeader: boolean;
  /** Gives the job up (another process takes it over) and stops trying. */
  stop(): Promise<void>;
}

/**
 * The reads and writes of the commands, inside one transaction. Reads named `lock…` lock what they
 * return until commit on PostgreSQL (`SELECT … FOR UPDATE`). Every command takes its locks in one
 * order, so two commands never wait for each other in a circle: an auction, then its products (by
 * ascending id), then wallets (by ascending id).
 */
export interface UnitOfWork extends LotsWork, CatalogueWork, SavedWork, AccountsWork, WalletWork, PhotosWork, MailWork, NoticesWork, HousesWork, BillingWork {
  /** Writes a decision's change set (see ChangeSet for the order); a product leaving its auction loses its lot number. */
  apply(changes: ChangeSet, now: number): Promise<Applied>;
}
