import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** The repository root, whether this runs from server/src (tsx, vitest) or server/dist (node). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SQLITE_MIGRATIONS_DIR = path.join(REPO_ROOT, 'drizzle', 'sqlite');
export const POSTGRES_MIGRATIONS_DIR = path.join(REPO_ROOT, 'drizzle', 'postgres');
export const CLIENT_DIST = path.join(REPO_ROOT, 'client', 'dist');

/** Relative paths resolve against the repository root, whichever workspace runs (DATABASE_URL's default ./data/auction.db included). */
export function fromRepoRoot(p: string): string {
  return path.isAbsolute(p) ? p : path.join(REPO_ROOT, p);
}
