/**
 * How the store is composed from its aggregates (docs/architecture.md, "The store"): each aggregate's
 * folder holds a slice of the unit of work (`<aggregate>/work.ts`) and of the reads (`<aggregate>/reads.ts`),
 * classes over the same SQL runner and dialect. `compose` copies the slices' methods onto one class's
 * prototype once, at load: a call costs what it cost when every method was written in one class.
 */
import type { Dialect, SqlRunner } from './sql.js';

/** What every slice reads and writes through: the transaction's (or the reads') runner, and the dialect. */
export abstract class SqlSlice {
  constructor(protected readonly sql: SqlRunner, protected readonly dialect: Dialect) {}
}

type SliceClass = abstract new (sql: SqlRunner, dialect: Dialect) => SqlSlice;

/**
 * Puts every method of `slices` on `target`'s prototype. Two slices (or a slice and the target) that
 * define one name would leave one of them unreachable: that throws, at load.
 */
export function compose(target: SliceClass, slices: readonly SliceClass[]): void {
  const owner = new Map<string, string>(Object.getOwnPropertyNames(target.prototype).map((name) => [name, target.name]));
  for (const slice of slices) {
    for (const name of Object.getOwnPropertyNames(slice.prototype)) {
      if (name === 'constructor') continue;
      const taken = owner.get(name);
      if (taken !== undefined) throw new Error(`store: ${slice.name}.${name} is already defined by ${taken}`);
      owner.set(name, slice.name);
      Object.defineProperty(target.prototype, name, Object.getOwnPropertyDescriptor(slice.prototype, name)!);
    }
  }
}
