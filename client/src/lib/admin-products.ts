/**
 * The admin's product lists, which Manage Products shows and the auction form chooses from: the
 * products in no auction, an auction's products, and the admin's auctions for the By Auction picker.
 * Every write that moves a product (a product saved or deleted, its photos changed, an auction
 * created, edited, deleted or settled, products imported) calls `productsChanged()`. Also Manage
 * Products' paged list, the category tree (the product form's select and the Categories page) and the
 * products' CSV import and export.
 */
import { infiniteQueryOptions, queryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { PRODUCT_CSV_COLUMNS } from '@auction/shared';
import type {
  AdminAuction, AdminProductFilter, AdminProductItem, AdminProductsPage, Product, ProductImportProblems, ProductsImported,
} from '@auction/shared';
import { api, ApiError, isSessionEnded } from './api-client';
import { downloadText } from './csv';
import { invalidateSoon } from './live-query';
import { queryClient } from './query-client';

const as = { as: 'admin' } as const;

export const fetchUnassigned = () => api.get<Product[]>('/admin/products/unassigned', as);
export const fetchMyAuctions = () => api.get<AdminAuction[]>('/admin/auctions/my', as);
export const fetchAuctionProducts = (auctionId: string) =>
  api.get<Product[]>(`/admin/auction/${encodeURIComponent(auctionId)}/products`, as);

/** Every product list below starts with this key. */
export const adminProductsKey = ['admin', 'products'] as const;

/** GET /admin/products/unassigned, the admin's products in no auction. */
export const unassignedProductsQuery = () => queryOptions({
  queryKey: [...adminProductsKey, 'unassigned'] as const,
  queryFn: () => fetchUnassigned(),
});

/** GET /admin/auctions/my, for the By Auction picker and its counts. */
export const productAuctionsQuery = () => queryOptions({
  queryKey: [...adminProductsKey, 'auctions'] as const,
  queryFn: () => fetchMyAuctions(),
});

/** GET /admin/auction/:id/products, by auction id ('' while there is none: no products, no request). */
export const auctionProductsQuery = (auctionId: string) => queryOptions({
  queryKey: [...adminProductsKey, 'by-auction', auctionId] as const,
  queryFn: () => (auctionId ? fetchAuctionProducts(auctionId) : Promise.resolve<Product[]>([])),
});

/** After a product was created, edited or deleted, its photos changed, or an auction took or gave back products: the lists on screen are read again, the others when next shown. */
export function productsChanged(): void {
  invalidateSoon(adminProductsKey);
}

// ---- the paged list of Manage Products, the categories, and products in bulk (CSV) ---------------

/** What the paged list is filtered by: text in the name, and where the products are ('' for all). */
export interface ProductListFilters {
  q: string;
  status: AdminProductFilter | '';
}

/** GET /admin/products, one page: the caller's own products, newest first. */
export const fetchProductPage = (filters: ProductListFilters, cursor: string | null) =>
  api.get<AdminProductsPage>('/admin/products', {
    ...as,
    query: { q: filters.q.trim() || undefined, status: filters.status || undefined, cursor: cursor ?? undefined },
  });

/** The paged list under `adminProductsKey`, so `productsChanged()` reads it again too (every page shown). */
export const productPagesQuery = (filters: ProductListFilters) => infiniteQueryOptions({
  queryKey: [...adminProductsKey, 'pages', { q: filters.q.trim(), status: filters.status }] as const,
  queryFn: ({ pageParam }) => fetchProductPage(filters, pageParam),
  initialPageParam: null as string | null,
  getNextPageParam: (last) => last.next_cursor,
});

export interface ProductPages {
  /** Every product of the pages read so far; null before the first answer. */
  items: AdminProductItem[] | null;
  /** How many match in all, once known. */
  total: number | null;
  more: boolean;
  status: 'loading' | 'success' | 'error';
  error: unknown;
  /** Reads the next page (rejects when it cannot be read). */
  loadMore: () => Promise<void>;
  refetch: () => Promise<void>;
}

/**
 * The paged list in a component: TanStack's `useInfiniteQuery` on the app's client (no provider
 * needed), with "Load more" as a promise that rejects when the page could not be read.
 */
export function useProductPages(filters: ProductListFilters, enabled = true): ProductPages {
  const result = useInfiniteQuery({ ...productPagesQuery(filters), enabled }, queryClient);
  const { fetchNextPage, refetch } = result;
  const loadMore = useCallback(async () => {
    const r = await fetchNextPage({ cancelRefetch: false });
    if (r.isError) throw r.error;
  }, [fetchNextPage]);
  const reread = useCallback(async () => { await refetch(); }, [refetch]);
  const pages = result.data?.pages;
  return {
    items: pages ? pages.flatMap((p) => p.items) : null,
    total: pages?.[0]?.total ?? null,
    more: result.hasNextPage,
    status: pages ? 'success' : result.status === 'error' ? 'error' : 'loading',
    error: result.error && !isSessionEnded(result.error) ? result.error : undefined,
    loadMore,
    refetch: reread,
  };
}

export { categoriesChanged, categoriesQuery } from './catalogue/categories';

/** The columns an import reads (and an export writes), in order. */
export const PRODUCT_CSV_HEADER = PRODUCT_CSV_COLUMNS.join(',');

/** POST /admin/products/import: the file, multipart, in the field `file`; every row is created, or none. */
export function importProducts(file: File) {
  const form = new FormData();
  form.append('file', file);
  return api.postForm<ProductsImported>('/admin/products/import', form, as);
}

/** A refused import's problems, by line of the file; null when the refusal named none. */
export function importProblems(err: unknown): ImportProblem[] | null {
  if (!(err instanceof ApiError)) return null;
  const body: unknown = err.body;
  const rows = (body as Partial<ProductImportProblems> | undefined)?.rows;
  return Array.isArray(rows) && rows.length > 0 ? rows : null;
}
export type ImportProblem = NonNullable<ProductImportProblems['rows']>[number];

/** GET /admin/products/export, read with the admin token and saved as products.csv. */
export async function exportProducts(): Promise<void> {
  const text = await api.get<string>('/admin/products/export', as);
  downloadText(PRODUCTS_CSV, typeof text === 'string' ? text.replace(/^\uFEFF/, '') : '');
}
export const PRODUCTS_CSV = 'products.csv';
