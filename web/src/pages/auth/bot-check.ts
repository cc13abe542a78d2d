import { useEffect, useState } from 'react';
import { usePublicConfig } from '../../api/endpoints';

declare global {
  interface Window {
    grecaptcha?: {
      ready(cb: () => void): void;
      execute(siteKey: string, options: { action: string }): Promise<string>;
    };
  }
}

/** The development verifier accepts this token when no site key is configured. */
const DEV_TOKEN = 'dev-recaptcha-token';

/**
 * reCAPTCHA v3: loads the script for the configured site key and returns a function that runs it with
 * an action. Without a site key (development), it returns the development token.
 */
export function useBotCheck(): {
  ready: boolean;
  loadError: string | null;
  execute: (action: string) => Promise<string>;
} {
  const { data: config } = usePublicConfig();
  const siteKey = config?.recaptchaSiteKey ?? '';
  const [loaded, setLoaded] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    if (!siteKey) return;
    const script = document.createElement('script');
    script.src = `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`;
    script.async = true;
    script.onload = () => window.grecaptcha?.ready(() => setLoaded(true));
    script.onerror = () => setLoadError('the script could not be loaded.');
    document.head.appendChild(script);
    return () => script.remove();
  }, [siteKey]);

  return {
    ready: config !== undefined && (!siteKey || loaded),
    loadError,
    execute: async (action: string) =>
      siteKey ? window.grecaptcha!.execute(siteKey, { action }) : DEV_TOKEN,
  };
}
