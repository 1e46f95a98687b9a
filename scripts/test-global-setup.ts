// Before any test: make sure the production build exists and is current, as `npm start` would.
import { ensureBuilt } from './build.mjs';

export default async function setup() {
  await ensureBuilt({ quiet: true });
}
