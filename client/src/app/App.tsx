import { BrowserRouter } from 'react-router-dom';
import { AppProviders } from './providers';
import { QueryProvider } from './QueryProvider';
import { AppRoutes } from './router';
import { ScrollToTop } from './ScrollToTop';

export function App() {
  return (
    <QueryProvider>
      <BrowserRouter>
        <ScrollToTop />
        <AppProviders>
          <AppRoutes />
        </AppProviders>
      </BrowserRouter>
    </QueryProvider>
  );
}
