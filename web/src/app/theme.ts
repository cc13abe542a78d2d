import type { ThemeConfig } from 'antd';

/** The brand orange, dark enough for white text and for links on white (WCAG AA, 4.5:1). */
export const BRAND_COLOR = '#c2410c';

export const theme: ThemeConfig = {
  token: {
    colorPrimary: BRAND_COLOR,
    colorLink: BRAND_COLOR,
    colorSuccess: '#2b8a3e',
    borderRadius: 8,
    // antd's defaults for secondary and disabled-looking text are below AA contrast on white.
    colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
    colorTextDescription: 'rgba(0, 0, 0, 0.65)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
    fontFamily: "'Inter', system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  },
};
