import { BrowserRouter } from 'react-router-dom';
import { AppProviders } from './providers';
import { AppRoutes } from './router';
import { ScrollToTop } from './ScrollToTop';

export function App() {
  return (
    <BrowserRouter>
      <ScrollToTop />
      <AppProviders>
        <AppRoutes />
      </AppProviders>
    </BrowserRouter>
  );
}
