import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// Base styles first so feature stylesheets can refine them.
import './styles/base.css';
import { App } from './app/App';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
