import { createRoot } from 'react-dom/client';
import { App } from './App';
import { RouterProvider } from './router';
import './styles.css';
import './feedback.css';
import './layout.css';
import './tables.css';
import './content.css';

createRoot(document.getElementById('root')!).render(
  <RouterProvider>
    <App />
  </RouterProvider>,
);
