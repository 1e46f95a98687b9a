import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from './session';
import { jsonResponse, mockFetch, resetAppState, sampleAdmin, sampleUser } from '../test/utils';
import { ApiError, api, errorText, isSessionEnded, registerNavigate } from './api-client';

function headersOf(fetchMock: ReturnType<typeof mockFetch>, call = 0): Record<string, string> {
  const init = fetchMock.mock.calls[call]?.[1];
  return (init?.headers ?? {}) as Record<string, string>;
}

describe('api client', () => {
  beforeEach(() => {
    resetAppState();
    localStorage.setItem('token', 'user-token');
    localStorage.setItem('admin_token', 'admin-token');
    localStorage.setItem('user', JSON.stringify(sampleUser));
    localStorage.setItem('admin', JSON.stringify(sampleAdmin));
  });
  afterEach(resetAppState);

  it('sends the user token, the admin token or none, as each call says', async () => {
    const fetchMock = mockFetch(jsonResponse(200, {}));
    await api.get('/user-bids', { as: 'user' });
    await api.get('/admin/auctions/my', { as: 'admin' });
    await api.get('/time', { as: 'none' });

    expect(headersOf(fetchMock, 0).authorization).toBe('Bearer user-token');
    expect(headersOf(fetchMock, 1).authorization).toBe('Bearer admin-token');
    expect(headersOf(fetchMock, 2).authorization).toBeUndefined();
  });

  it('sends no authorization header when the requested token is not stored', async () => {
    localStorage.removeItem('admin_token');
    const fetchMock = mockFetch(jsonResponse(200, {}));
    await api.get('/admin/auctions/my', { as: 'admin' });
    expect(headersOf(fetchMock).authorization).toBeUndefined();
  });

  it('calls /api by default and sends JSON with a content-type only when there is a body', async () => {
    const fetchMock = mockFetch(jsonResponse(200, { ok: true }));
    await api.post('/wallet/topup', { amount: 500 }, { as: 'user' });
    await api.post('/admin/auction/A1/settle', undefined, { as: 'admin' });
    await api.delete('/admin/product/P1', { as: 'admin' });

    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/wallet/topup');
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('POST');
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBe('{"amount":500}');
    expect(headersOf(fetchMock, 0)['content-type']).toBe('application/json');
    for (const call of [1, 2]) {
      expect(headersOf(fetchMock, call)['content-type']).toBeUndefined();
      expect(fetchMock.mock.calls[call]?.[1]?.body).toBeUndefined();
    }
  });

  it('adds query parameters and honours VITE_API_BASE', async () => {
    vi.stubEnv('VITE_API_BASE', 'https://api.example.com/api/');
    const fetchMock = mockFetch(jsonResponse(200, { highest_bid: 0 }));
    await api.get('/highest-bid', { as: 'user', query: { product_key: 'P 1', skip: undefined } });
    expect(fetchMock.mock.calls[0]?.[0]).toBe('https://api.example.com/api/highest-bid?product_key=P+1');
  });

  it('returns the parsed JSON body on success', async () => {
    mockFetch(jsonResponse(200, { server_time: '2026-01-01T00:00:00.000Z' }));
    await expect(api.get('/time', { as: 'none' })).resolves.toEqual({ server_time: '2026-01-01T00:00:00.000Z' });
  });

  it('turns an error body into an ApiError with status, code and the server text', async () => {
    mockFetch(jsonResponse(409, { error: 'Bid must be higher than current highest bid of ₹1,000', message: 'Bid must be higher than current highest bid of ₹1,000', code: 'BID_TOO_LOW' }));
    const err = await api.post('/bid', { product_name: 'P1', bid_amount: 10 }, { as: 'user' }).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(ApiError);
    const apiError = err as ApiError;
    expect(apiError.status).toBe(409);
    expect(apiError.code).toBe('BID_TOO_LOW');
    expect(apiError.serverError).toBe('Bid must be higher than current highest bid of ₹1,000');
    expect(apiError.message).toBe('Bid must be higher than current highest bid of ₹1,000');
    expect(errorText(err, 'Failed to place bid')).toBe('Bid must be higher than current highest bid of ₹1,000');
  });

  it('uses the caller fallback when the failure carries no server text', async () => {
    mockFetch(new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }));
    const badGateway = await api.get('/auctions', { as: 'user' }).catch((e: unknown) => e);
    expect(badGateway).toBeInstanceOf(ApiError);
    expect((badGateway as ApiError).status).toBe(502);
    expect(errorText(badGateway, 'Failed to load auctions')).toBe('Failed to load auctions');

    mockFetch(new TypeError('Failed to fetch'));
    const offline = await api.get('/auctions', { as: 'user' }).catch((e: unknown) => e);
    expect((offline as ApiError).code).toBe('NETWORK');
    expect(errorText(offline, 'Failed to load auctions')).toBe('Failed to load auctions');
  });

  it('on a 401 clears the four keys, resets the session and navigates to /', async () => {
    useSession.getState().hydrate();
    expect(useSession.getState().user?.username).toBe('asha');
    localStorage.setItem('unrelated', 'kept');
    const navigate = vi.fn();
    registerNavigate(navigate);
    mockFetch(jsonResponse(401, { error: 'Session expired', message: 'Session expired', code: 'UNAUTHENTICATED' }));

    const err = await api.get('/user-bids', { as: 'user' }).catch((e: unknown) => e);

    expect((err as ApiError).status).toBe(401);
    expect(isSessionEnded(err)).toBe(true);
    for (const key of ['token', 'admin_token', 'user', 'admin']) expect(localStorage.getItem(key)).toBeNull();
    expect(localStorage.getItem('unrelated')).toBe('kept');
    expect(useSession.getState().user).toBeNull();
    expect(useSession.getState().admin).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/', { replace: true });
  });

  it('a 401 to a call that carried no token (a visitor) ends nothing and goes nowhere', async () => {
    useSession.getState().hydrate();
    localStorage.removeItem('token');
    const navigate = vi.fn();
    registerNavigate(navigate);
    const fetchMock = mockFetch(jsonResponse(401, { error: 'Please sign in', message: 'Please sign in', code: 'UNAUTHENTICATED' }));
    const err = await api.get('/wallet', { as: 'user' }).catch((e: unknown) => e);
    expect((err as ApiError).status).toBe(401);
    expect(headersOf(fetchMock).authorization).toBeUndefined();
    expect(localStorage.getItem('admin_token')).toBe('admin-token');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('leaves the session alone on a 400 bad-credentials answer', async () => {
    const navigate = vi.fn();
    registerNavigate(navigate);
    mockFetch(jsonResponse(400, { error: 'Invalid username or password', message: 'Invalid username or password', code: 'INVALID_CREDENTIALS' }));
    const err = await api.post('/login', { username: 'a', password: 'b' }, { as: 'none' }).catch((e: unknown) => e);
    expect(isSessionEnded(err)).toBe(false);
    expect(isSessionEnded(new Error('401'))).toBe(false);
    expect(localStorage.getItem('token')).toBe('user-token');
    expect(navigate).not.toHaveBeenCalled();
  });
});
