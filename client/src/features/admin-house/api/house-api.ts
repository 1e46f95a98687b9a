/** The House page's calls, with the admin token: the house profile read and saved whole. */
import { queryOptions } from '@tanstack/react-query';
import type { House, PutHouseBody } from '@auction/shared';
import { api } from '../../../lib/api-client';
import { setQueryFresh } from '../../../lib/live-query';
import { queryRoots } from '../../../lib/query-keys';

export const houseKey = queryRoots.house;

/** GET /admin/house: the profile, the account number masked (`••1234`), and what settling still needs. */
export const houseQuery = () => queryOptions({
  queryKey: houseKey,
  queryFn: ({ signal }) => api.get<House>('/admin/house', { as: 'admin', signal }),
});

/** PUT /admin/house with the whole profile; the answer is the profile as stored. */
export const saveHouse = (body: PutHouseBody) => api.put<House>('/admin/house', body, { as: 'admin' });

/** The save's answer is newer than any read in flight: it is what the page shows now. */
export const houseSaved = (house: House) => setQueryFresh(houseKey, house);
