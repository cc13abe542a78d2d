import type { ReactNode } from 'react';

/** A small status label with AA contrast (antd's preset tag colours are too light on their backgrounds). */
export function StatusTag({ up, children }: { up: boolean | null; children: ReactNode }) {
  const tone = up === null ? 'fv-status-neutral' : up ? 'fv-status-up' : 'fv-status-down';
  return <span className={`fv-status-tag ${tone}`}>{children}</span>;
}
