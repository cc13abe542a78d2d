import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { SWRConfig } from 'swr';
import { swrFetcher } from './api/http';
import { router } from './app/router';
import { AuthProvider } from './auth/auth-context';
import { RoomProvider } from './room/room-context';
import './styles.css';

// antd's theme is not here: AntdScope brings it with the pages and dialogs that use antd (app/antd-scope.tsx).
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SWRConfig value={{ fetcher: swrFetcher, revalidateOnFocus: false }}>
      <AuthProvider>
        <RoomProvider>
          <RouterProvider router={router} />
        </RoomProvider>
      </AuthProvider>
    </SWRConfig>
  </StrictMode>,
);
