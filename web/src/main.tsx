import { ConfigProvider } from 'antd';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { SWRConfig } from 'swr';
import { swrFetcher } from './api/http';
import { router } from './app/router';
import { PHONE_QUERY, phoneTheme, theme } from './app/theme';
import { useMediaQuery } from './app/use-media-query';
import { AuthProvider } from './auth/auth-context';
import { RoomProvider } from './room/room-context';
import './styles.css';

function App() {
  const phone = useMediaQuery(PHONE_QUERY);
  return (
    <ConfigProvider theme={phone ? phoneTheme : theme} componentSize="middle">
      <SWRConfig value={{ fetcher: swrFetcher, revalidateOnFocus: false }}>
        <AuthProvider>
          <RoomProvider>
            <RouterProvider router={router} />
          </RoomProvider>
        </AuthProvider>
      </SWRConfig>
    </ConfigProvider>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
