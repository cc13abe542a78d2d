import { ConfigProvider } from 'antd';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { SWRConfig } from 'swr';
import { swrFetcher } from './api/http';
import { router } from './app/router';
import { theme } from './app/theme';
import { AuthProvider } from './auth/auth-context';
import { RoomProvider } from './room/room-context';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ConfigProvider theme={theme} componentSize="middle">
      <SWRConfig value={{ fetcher: swrFetcher, revalidateOnFocus: false }}>
        <AuthProvider>
          <RoomProvider>
            <RouterProvider router={router} />
          </RoomProvider>
        </AuthProvider>
      </SWRConfig>
    </ConfigProvider>
  </StrictMode>,
);
