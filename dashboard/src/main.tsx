import { QueryClientProvider } from '@tanstack/react-query';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { createQueryClient } from './queries';
import { RouterProvider } from './router';
import './styles.css';
import './feedback.css';
import './layout.css';
import './tables.css';
import './content.css';

const queryClient = createQueryClient();

createRoot(document.getElementById('root')!).render(
  <QueryClientProvider client={queryClient}>
    <RouterProvider>
      <App />
    </RouterProvider>
  </QueryClientProvider>,
);
