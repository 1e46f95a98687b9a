import { lazy, Suspense } from 'react';
import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '../lib/query-client';

// Development only: `import.meta.env.DEV` is false in a production build, so the bundler drops this
// branch and the devtools' chunk with it (so the package is a development dependency).
const Devtools = import.meta.env.DEV
  // eslint-disable-next-line import-x/no-extraneous-dependencies -- loaded only by the dev server (see above)
  ? lazy(() => import('@tanstack/react-query-devtools').then((m) => ({ default: m.ReactQueryDevtools })))
  : null;

/** The app's QueryClient for anything that reads it from context, and the devtools in development. */
export function QueryProvider({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      {Devtools && (
        <Suspense fallback={null}>
          <Devtools initialIsOpen={false} buttonPosition="bottom-left" />
        </Suspense>
      )}
    </QueryClientProvider>
  );
}
