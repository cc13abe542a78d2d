import type { ThemeConfig } from 'antd';

export const BRAND_COLOR = '#e8590c';

export const theme: ThemeConfig = {
  token: {
    colorPrimary: BRAND_COLOR,
    borderRadius: 8,
    fontFamily: "'Inter', system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  },
};
