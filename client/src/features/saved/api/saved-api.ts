import type { SavedLot } from '@auction/shared';
import { api } from '../../../lib/api-client';
import { queryFamily } from '../../../lib/live-query';
import { queryRoots } from '../../../lib/query-keys';

const lot = (productId: string) => `/saved/${encodeURIComponent(productId)}`;

/** The caller's saved lots, newest saved first, each with their own state on it (`my_status`, `my_max`) and its auction. */
export async function fetchSavedLots(signal?: AbortSignal): Promise<SavedLot[]> {
  const data = await api.get<unknown>('/saved', { as: 'user', signal });
  return Array.isArray(data) ? (data as SavedLot[]) : [];
}

/** Saves a lot (idempotent; 204). */
export async function saveLot(productId: string): Promise<void> {
  await api.put<unknown>(lot(productId), undefined, { as: 'user' });
}

/** Takes a lot off the caller's saved list (idempotent; 204). */
export async function unsaveLot(productId: string): Promise<void> {
  await api.delete<unknown>(lot(productId), { as: 'user' });
}

/** The caller's saved lots, newest saved first (query options). */
export const savedLots = queryFamily<void, SavedLot[]>(queryRoots.savedLots, () => fetchSavedLots());

/** PUT or DELETE /saved/{id}: one lot's star, as the server should have it. */
export const saveMutation = {
  mutationKey: ['saved'],
  mutationFn: ({ id, saved }: { id: string; saved: boolean }) => (saved ? saveLot(id) : unsaveLot(id)),
};
