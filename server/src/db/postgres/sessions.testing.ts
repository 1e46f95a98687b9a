/** For PostgreSQL tests: a session of their own beside the store's pool. */
import pg from 'pg';

/** A connection of its own in the schema of `databaseUrl` (a test database's), for taking locks by hand. */
export async function sessionIn(databaseUrl: string): Promise<pg.Client> {
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get('schema')!;
  url.searchParams.delete('schema');
  url.searchParams.delete('options');
  const client = new pg.Client({ connectionString: url.toString(), options: `-c search_path=${schema}` });
  await client.connect();
  return client;
}
