import type { ThemeConfig } from 'antd';

/** The brand orange, dark enough for white text and for links on white (WCAG AA, 4.5:1). */
export const BRAND_COLOR = '#c2410c';

export const theme: ThemeConfig = {
  token: {
    colorPrimary: BRAND_COLOR,
    colorLink: BRAND_COLOR,
    colorSuccess: '#2b8a3e',
    // A fresh green for success alerts (antd derives a grey-green from colorSuccess that reads as disabled).
    colorSuccessBg: '#ebfbee',
    colorSuccessBorder: '#8ce99a',
    // antd's #ff4d4f on white is 3.26:1; this red is 5.6:1 as text, border and button fill alike.
    colorError: '#c62828',
    borderRadius: 8,
    // antd's defaults for secondary and disabled-looking text are below AA contrast on white.
    colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
    colorTextDescription: 'rgba(0, 0, 0, 0.65)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
    fontFamily: "'Inter', system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  },
};

/** Where a finger, not a pointer, is the likely input: the width the app lays out for phones. */
export const PHONE_QUERY = '(max-width: 600px)';

/**
 * On a phone every control is at least 44 px tall (the platforms' 44–48 px touch target; WCAG 2.2 asks
 * 24 px anywhere, which antd's 32 px default meets on a desktop).
 */
export const phoneTheme: ThemeConfig = {
  ...theme,
  token: { ...theme.token, controlHeight: 44, controlHeightSM: 44, controlHeightLG: 48 },
};
