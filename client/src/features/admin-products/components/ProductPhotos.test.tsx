import type { Product } from '@auction/shared';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useToasts } from '../../../components/ui/toast/toast-store';
import { jsonResponse, resetAppState, routeFetch, sampleAdmin, type FetchAnswer } from '../../../test/utils';
import { useSession } from '../../../lib/session';
import { checkPhoto, mediaSrc, PHOTO_LIMITS, PHOTOS_SOLD } from '../model';
import { ManageProductsPage } from './ManageProductsPage';

const img = (id: number) => ({ id, url: `/media/full-${id}.webp`, thumb_url: `/media/thumb-${id}.webp` });
const detail = (id: number) => ({ ...img(id), width: 1600, height: 1200 });
const product = (id: string, over: Partial<Product> = {}): Product => ({
  id, name: `Item ${id}`, description: `About ${id}`, status: 'available', auction_id: null, highest_bid: 0, bid_count: 0, version: 0,
  starting_price: 0, min_next_bid: 1, reserve_met: null, buy_now_price: null, my_status: null, my_max: null, reserve_price: null, images: [], ...over,
});
const jpeg = (name: string, size = 10) => new File([new Uint8Array(size)], name, { type: 'image/jpeg' });
const toasts = () => useToasts.getState().toasts.map((t) => `${t.kind}: ${t.message}`);

/** A fetch answer that waits until the test gives it. */
function later() {
  let give!: (res: Response) => void;
  const answer = (() => new Promise<Response>((resolve) => { give = resolve; })) as unknown as FetchAnswer;
  return { answer, give: (res: Response) => give(res) };
}

/** Manage Products with `p` listed, its Edit dialog open: the dialog and its Photos section. */
async function openEdit(p: Product, routes: Record<string, FetchAnswer[]> = {}) {
  const api = routeFetch({
    'GET /api/admin/products/unassigned': [jsonResponse(200, [p])],
    'GET /api/admin/auctions/my': [jsonResponse(200, [])],
    ...routes,
  });
  render(<MemoryRouter><ManageProductsPage /></MemoryRouter>);
  fireEvent.click(await screen.findByRole('button', { name: `Edit ${p.name}` }));
  const dialog = screen.getByRole('dialog', { name: 'Edit Product' });
  const photos = within(dialog).getByRole('group', { name: 'Photos' });
  return { api, dialog, photos };
}

/** The photos shown, in order: their thumbnails' addresses. */
const thumbs = (photos: HTMLElement) => within(photos).queryAllByRole('img', { name: /^Photo \d+$/ }).map((el) => el.getAttribute('src'));
const uploadRow = (photos: HTMLElement, name: string) => within(photos).getAllByTestId('photo-upload').find((el) => el.textContent?.includes(name));
const button = (photos: HTMLElement, name: string) => within(photos).getByRole<HTMLButtonElement>('button', { name });

describe('product photos', () => {
  let previews = 0;
  let revoke = vi.fn();
  beforeEach(() => {
    resetAppState();
    // Through the store, so the token is where the API client reads it.
    useSession.getState().setAdminSession({ token: 'admin-token', admin: sampleAdmin });
    previews = 0;
    // jsdom has no object URLs.
    Object.defineProperty(URL, 'createObjectURL', { configurable: true, writable: true, value: vi.fn(() => `blob:preview-${++previews}`) });
    revoke = vi.fn();
    Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, writable: true, value: revoke });
  });
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('follows the server’s MEDIA_MAX_MB: a file over it is refused before it is sent', async () => {
    const settings = { auto_settle: true, admin_signup: 'open', min_increment: 1, live_frame_ms: 30, timezone: 'UTC', soft_close_s: 120, max_extension_s: 3600, media_max_mb: 2 };
    const { api, dialog, photos } = await openEdit(product('P1'), { 'GET /api/admin/settings': [jsonResponse(200, settings)] });
    await within(photos).findByText('Up to 10 photos, JPEG, PNG or WebP, 2 MB each.', { exact: false });
    const big = new File([new Uint8Array(3 * 1024 * 1024)], 'big.jpg', { type: 'image/jpeg' });
    fireEvent.change(within(dialog).getByLabelText<HTMLInputElement>('Photo files'), { target: { files: [big] } });
    await waitFor(() => expect(uploadRow(photos, 'big.jpg')?.textContent).toContain('The photo must not exceed 2 MB'));
    expect(api.calls('POST /api/admin/products/P1/images')).toHaveLength(0);
  });

  it('uploads a chosen file as multipart field "image", previews it while it goes, then shows the new thumbnail', async () => {
    const slow = later();
    const { api, dialog, photos } = await openEdit(product('P1', { images: [img(11)] }), { 'POST /api/admin/products/P1/images': [slow.answer] });
    expect(within(photos).getByText(`${PHOTO_LIMITS}.`, { exact: false })).toBeTruthy();
    const input = within(dialog).getByLabelText<HTMLInputElement>('Photo files');
    expect(input.type).toBe('file');
    expect(input.accept).toBe('image/jpeg,image/png,image/webp');
    expect(input.multiple).toBe(true);

    const file = jpeg('vase.jpg');
    fireEvent.change(input, { target: { files: [file] } });
    const row = await waitFor(() => uploadRow(photos, 'vase.jpg')!);
    expect(row.textContent).toContain('Uploading…');
    expect(row.querySelector('img')?.getAttribute('src')).toBe('blob:preview-1');
    expect(within(row).getByRole('progressbar', { name: 'Uploading vase.jpg' })).toBeTruthy();
    // Nothing else changes while a photo is on its way.
    expect(button(photos, 'Delete photo 1').disabled).toBe(true);

    await waitFor(() => expect(api.calls('POST /api/admin/products/P1/images')).toHaveLength(1));
    const init = api.calls('POST /api/admin/products/P1/images')[0]![1]!;
    expect(init.body).toBeInstanceOf(FormData);
    expect([...(init.body as FormData).keys()]).toEqual(['image']);
    expect(((init.body as FormData).get('image') as File).name).toBe('vase.jpg');
    const headers = init.headers as Record<string, string>;
    expect(headers.authorization).toBe('Bearer admin-token');
    expect(headers['content-type']).toBeUndefined();

    await act(async () => { slow.give(jsonResponse(201, { image: detail(12) })); });
    await waitFor(() => expect(thumbs(photos)).toEqual(['/media/thumb-11.webp', '/media/thumb-12.webp']));
    expect(within(photos).queryAllByTestId('photo-upload')).toHaveLength(0);
    expect(revoke).toHaveBeenCalledWith('blob:preview-1');
    expect(button(photos, 'Delete photo 2').disabled).toBe(false);
    // The lists are read again (the table shows the new cover).
    await waitFor(() => expect(api.calls('GET /api/admin/products/unassigned')).toHaveLength(2));
  });

  it('uploads dropped files one by one and shows each refusal in its own words beside that file', async () => {
    const { api, dialog, photos } = await openEdit(product('P1'), {
      'POST /api/admin/products/P1/images': [
        jsonResponse(201, { image: detail(21) }),
        jsonResponse(400, { error: 'Not an image: JPEG, PNG or WebP only', message: 'Not an image: JPEG, PNG or WebP only', code: 'VALIDATION', field: 'image' }),
        new Response('<html>413 Request Entity Too Large</html>', { status: 413, headers: { 'content-type': 'text/html' } }),
        jsonResponse(409, { error: 'A product may have at most 10 photos: delete one to add another', code: 'TOO_MANY_IMAGES' }),
      ],
    });
    expect(within(photos).getByText('No photos yet.')).toBeTruthy();
    const zone = within(dialog).getByTestId('photos-drop');
    const files = [
      jpeg('a.jpg'), jpeg('b.jpg'), jpeg('c.jpg'), jpeg('d.jpg'),
      jpeg('huge.jpg', 9 * 1024 * 1024), new File(['hello'], 'notes.txt', { type: 'text/plain' }),
    ];
    fireEvent.dragOver(zone, { dataTransfer: { types: ['Files'], dropEffect: 'none' } });
    expect(zone.className).toContain('photos-drop-active');
    fireEvent.drop(zone, { dataTransfer: { types: ['Files'], files } });
    expect(zone.className).not.toContain('photos-drop-active');

    await waitFor(() => expect(uploadRow(photos, 'd.jpg')?.textContent).toContain('A product may have at most 10 photos: delete one to add another'));
    expect(uploadRow(photos, 'b.jpg')?.textContent).toContain('Not an image: JPEG, PNG or WebP only');
    expect(uploadRow(photos, 'c.jpg')?.textContent).toContain('The photo must not exceed 8 MB');
    // Files the browser already knows are no photo, or too big, are never sent.
    expect(uploadRow(photos, 'huge.jpg')?.textContent).toContain('The photo must not exceed 8 MB');
    expect(uploadRow(photos, 'notes.txt')?.textContent).toContain('Not an image: JPEG, PNG or WebP only');
    const sent = api.calls('POST /api/admin/products/P1/images').map(([, init]) => ((init!.body as FormData).get('image') as File).name);
    expect(sent).toEqual(['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg']);
    expect(uploadRow(photos, 'a.jpg')).toBeUndefined();
    expect(thumbs(photos)).toEqual(['/media/thumb-21.webp']);
    expect(within(photos).getAllByRole('alert')).toHaveLength(5);

    // A refusal stays until dismissed; its preview then goes.
    const bPreview = uploadRow(photos, 'b.jpg')!.querySelector('img')!.getAttribute('src');
    fireEvent.click(button(photos, 'Dismiss b.jpg'));
    expect(uploadRow(photos, 'b.jpg')).toBeUndefined();
    expect(revoke).toHaveBeenCalledWith(bPreview);
  });

  it('marks the first photo as the cover and reorders by the Move buttons, sending the new order', async () => {
    const { api, photos } = await openEdit(product('P1', { images: [img(1), img(2), img(3)] }), {
      'PUT /api/admin/products/P1/images/order': [
        (body) => jsonResponse(200, { images: (body as { ids: number[] }).ids.map(detail) }),
        jsonResponse(409, { error: 'This product has been sold: its photos can no longer change', code: 'PRODUCT_SOLD' }),
      ],
    });
    const covers = () => within(photos).getAllByTestId('photo-tile').map((tile) => within(tile).queryByText('Cover') !== null);
    expect(thumbs(photos)).toEqual(['/media/thumb-1.webp', '/media/thumb-2.webp', '/media/thumb-3.webp']);
    expect(covers()).toEqual([true, false, false]);
    expect(button(photos, 'Move photo 1 left').disabled).toBe(true);
    expect(button(photos, 'Move photo 3 right').disabled).toBe(true);

    fireEvent.click(button(photos, 'Move photo 2 left'));
    await waitFor(() => expect(api.calls('PUT /api/admin/products/P1/images/order')).toHaveLength(1));
    expect(api.body('PUT /api/admin/products/P1/images/order')).toEqual({ ids: [2, 1, 3] });
    await waitFor(() => expect(thumbs(photos)).toEqual(['/media/thumb-2.webp', '/media/thumb-1.webp', '/media/thumb-3.webp']));
    expect(covers()).toEqual([true, false, false]);
    // The moved photo keeps the focus (its Move left is disabled now: it is the cover).
    await waitFor(() => expect(document.activeElement).toBe(button(photos, 'Move photo 1 right')));
    expect(within(photos).getByRole('status').textContent).toBe('Photo moved to position 1 of 3, the cover');
    await waitFor(() => expect(api.calls('GET /api/admin/products/unassigned')).toHaveLength(2));

    // Refused: the order before comes back, and the server says why.
    fireEvent.click(button(photos, 'Move photo 2 right'));
    await waitFor(() => expect(toasts()).toContain('error: This product has been sold: its photos can no longer change'));
    expect(api.body('PUT /api/admin/products/P1/images/order', 1)).toEqual({ ids: [2, 3, 1] });
    expect(thumbs(photos)).toEqual(['/media/thumb-2.webp', '/media/thumb-1.webp', '/media/thumb-3.webp']);
  });

  it('reorders by dragging a photo onto another', async () => {
    const { api, photos } = await openEdit(product('P1', { images: [img(1), img(2), img(3)] }), {
      'PUT /api/admin/products/P1/images/order': [(body) => jsonResponse(200, { images: (body as { ids: number[] }).ids.map(detail) })],
    });
    const tiles = within(photos).getAllByTestId('photo-tile');
    expect(tiles[2]!.getAttribute('draggable')).toBe('true');
    fireEvent.dragStart(tiles[2]!, { dataTransfer: { setData: vi.fn(), effectAllowed: 'all', types: [] } });
    fireEvent.dragOver(tiles[0]!, { dataTransfer: { types: ['text/plain'], dropEffect: 'none' } });
    fireEvent.drop(tiles[0]!, { dataTransfer: { types: ['text/plain'], files: [] } });
    await waitFor(() => expect(thumbs(photos)).toEqual(['/media/thumb-3.webp', '/media/thumb-1.webp', '/media/thumb-2.webp']));
    expect(api.body('PUT /api/admin/products/P1/images/order')).toEqual({ ids: [3, 1, 2] });
    expect(api.calls('POST /api/admin/products/P1/images')).toHaveLength(0);
  });

  it('deletes a photo only once the small confirm says so', async () => {
    const { api, dialog, photos } = await openEdit(product('P1', { images: [img(1), img(2), img(3)] }), {
      'DELETE /api/admin/products/P1/images/2': [jsonResponse(200, { message: 'Photo deleted' })],
    });
    fireEvent.click(button(photos, 'Delete photo 2'));
    let ask = within(photos).getByRole('group', { name: 'Delete photo 2?' });
    expect(document.activeElement).toBe(within(ask).getByRole('button', { name: 'Keep' }));
    fireEvent.click(within(ask).getByRole('button', { name: 'Keep' }));
    expect(within(photos).queryByRole('group', { name: 'Delete photo 2?' })).toBeNull();

    // Escape leaves the question, not the dialog.
    fireEvent.click(button(photos, 'Delete photo 2'));
    fireEvent.keyDown(within(photos).getByRole('button', { name: 'Keep' }), { key: 'Escape' });
    expect(within(photos).queryByRole('group', { name: 'Delete photo 2?' })).toBeNull();
    expect(dialog.isConnected).toBe(true);
    expect(api.calls('DELETE /api/admin/products/P1/images/2')).toHaveLength(0);

    fireEvent.click(button(photos, 'Delete photo 2'));
    ask = within(photos).getByRole('group', { name: 'Delete photo 2?' });
    fireEvent.click(within(ask).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(thumbs(photos)).toEqual(['/media/thumb-1.webp', '/media/thumb-3.webp']));
    expect(api.calls('DELETE /api/admin/products/P1/images/2')).toHaveLength(1);
    // Focus goes to the photo that took its place.
    await waitFor(() => expect(document.activeElement).toBe(button(photos, 'Delete photo 2')));
    await waitFor(() => expect(api.calls('GET /api/admin/products/unassigned')).toHaveLength(2));
  });

  it('a sold product’s photos are shown but cannot change, and says why', async () => {
    const { api, dialog, photos } = await openEdit(product('P1', { status: 'sold', images: [img(1), img(2)] }));
    expect((photos as HTMLFieldSetElement).disabled).toBe(true);
    expect(within(photos).getByText(PHOTOS_SOLD)).toBeTruthy();
    expect(photos.getAttribute('aria-describedby')).toContain(within(photos).getByText(PHOTOS_SOLD).parentElement!.id);
    expect(thumbs(photos)).toEqual(['/media/thumb-1.webp', '/media/thumb-2.webp']);
    for (const name of ['Choose photos', 'Move photo 2 left', 'Move photo 1 right', 'Delete photo 1', 'Delete photo 2']) {
      expect(button(photos, name).disabled).toBe(true);
    }
    expect(within(photos).getAllByTestId('photo-tile').every((tile) => tile.getAttribute('draggable') === 'false')).toBe(true);
    fireEvent.drop(within(dialog).getByTestId('photos-drop'), { dataTransfer: { types: ['Files'], files: [jpeg('a.jpg')] } });
    fireEvent.change(within(dialog).getByLabelText('Photo files'), { target: { files: [jpeg('b.jpg')] } });
    await new Promise((r) => setTimeout(r, 0));
    expect(within(photos).queryAllByTestId('photo-upload')).toHaveLength(0);
    expect(api.calls('POST /api/admin/products/P1/images')).toHaveLength(0);
  });

  it('closing the dialog stops an upload on its way and lets its preview go', async () => {
    const slow = later();
    const { api, dialog } = await openEdit(product('P1'), { 'POST /api/admin/products/P1/images': [slow.answer] });
    fireEvent.change(within(dialog).getByLabelText('Photo files'), { target: { files: [jpeg('a.jpg')] } });
    await waitFor(() => expect(api.calls('POST /api/admin/products/P1/images')).toHaveLength(1));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.calls('POST /api/admin/products/P1/images')[0]![1]!.signal?.aborted).toBe(true);
    expect(revoke).toHaveBeenCalledWith('blob:preview-1');
  });

  it('a product just added goes on to its photos', async () => {
    const api = routeFetch({
      'GET /api/admin/products/unassigned': [jsonResponse(200, [])],
      'GET /api/admin/auctions/my': [jsonResponse(200, [])],
      'POST /api/admin/product': [jsonResponse(201, { message: 'ok', product: product('P7') })],
      'POST /api/admin/products/P7/images': [jsonResponse(201, { image: detail(70) })],
    });
    render(<MemoryRouter><ManageProductsPage /></MemoryRouter>);
    await screen.findByText('No unassigned products');
    fireEvent.click(screen.getByRole('button', { name: 'Add Product' }));
    const add = screen.getByRole('dialog', { name: 'Add Product' });
    expect(within(add).queryByRole('group', { name: 'Photos' })).toBeNull();
    fireEvent.change(within(add).getByLabelText('Product ID'), { target: { value: 'P7' } });
    fireEvent.change(within(add).getByLabelText('Name'), { target: { value: 'Vase' } });
    fireEvent.change(within(add).getByLabelText('Description'), { target: { value: 'Blue' } });
    fireEvent.click(within(add).getByRole('button', { name: 'Add Product' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Photos' });
    const photos = within(dialog).getByRole('group', { name: 'Photos' });
    fireEvent.change(within(dialog).getByLabelText('Photo files'), { target: { files: [jpeg('v.jpg')] } });
    await waitFor(() => expect(thumbs(photos)).toEqual(['/media/thumb-70.webp']));
    expect(api.calls('POST /api/admin/products/P7/images')).toHaveLength(1);
  });

  it('the products table shows each product’s cover beside its name, or a placeholder', async () => {
    routeFetch({
      'GET /api/admin/products/unassigned': [jsonResponse(200, [product('P1', { images: [img(5), img(6)] }), product('P2')])],
      'GET /api/admin/auctions/my': [jsonResponse(200, [])],
    });
    render(<MemoryRouter><ManageProductsPage /></MemoryRouter>);
    expect(await screen.findByText('Item P1')).toBeTruthy();
    const withCover = screen.getByTestId('cover-P1');
    expect(withCover.tagName).toBe('IMG');
    expect(withCover.getAttribute('src')).toBe('/media/thumb-5.webp');
    const none = screen.getByTestId('cover-P2');
    expect(none.tagName).toBe('SPAN');
    expect(none.querySelector('svg')).not.toBeNull();
  });

  it('checks a file before sending it and reads photos from the API’s origin when that is elsewhere', () => {
    expect(checkPhoto({ type: 'image/webp', size: 8 * 1024 * 1024 })).toBeNull();
    expect(checkPhoto({ type: '', size: 100 })).toBeNull();
    expect(checkPhoto({ type: 'image/gif', size: 100 })).toBe('Not an image: JPEG, PNG or WebP only');
    expect(checkPhoto({ type: 'image/png', size: 8 * 1024 * 1024 + 1 })).toBe('The photo must not exceed 8 MB');
    expect(mediaSrc('/media/a.webp')).toBe('/media/a.webp');
    vi.stubEnv('VITE_API_BASE', 'https://api.example.com/api');
    expect(mediaSrc('/media/a.webp')).toBe('https://api.example.com/media/a.webp');
  });
});
