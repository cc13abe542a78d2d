import { ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import { PHONE_QUERY, phoneTheme, theme } from './theme';
import { useMediaQuery } from './use-media-query';

/**
 * antd's theme around what uses antd: each page that does (router.tsx) and each lazily loaded dialog or
 * sheet. The frame and the plain pages load none of antd, so a phone's first load carries only what it shows.
 */
export function AntdScope({ children }: { children: ReactNode }) {
  const phone = useMediaQuery(PHONE_QUERY);
  return (
    <ConfigProvider theme={phone ? phoneTheme : theme} componentSize="middle">
      {children}
    </ConfigProvider>
  );
}
