/** SQL text for the enumerations of shared/src/schemas/enums.ts, for both drizzle schemas. */
import { sql, type SQL } from 'drizzle-orm';

/** `'a', 'b', 'c'`: the values as an SQL list, for a CHECK constraint's `in (…)`. */
export const sqlList = (values: readonly string[]): SQL => sql.raw(values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', '));
